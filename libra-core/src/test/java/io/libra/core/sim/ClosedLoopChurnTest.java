package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The closed loop as a master or sidecar runs it: plan, carry the plan out, measure a quiet window,
 * plan again with the last three windows and the previous plan. A plan held back as noise carries
 * the miss to the next check (PredictionCheck), so a quiet round does not restart churn.
 * Numbers per seed: docs/benchmarks.md.
 */
class ClosedLoopChurnTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final int ROUNDS = 6;

    /**
     * On cache-skew what a region costs depends on what else its node's block cache holds. With a
     * per-region cost model the first plan's forecast missed by 10-21%, later plans stayed held back
     * against that miss, and the seeds ended at disk 1.09-1.25. The learnt block cache (CacheModel)
     * forecasts the moves: by the third window every seed of 1-8 is within 1.10 in both dimensions,
     * and the rounds after it move at most a tenth of the first plans' data (6.7%; seeds 1-4 alone
     * 10.4%: seed 4 takes small steps while its measured Δ hovers at 0.07-0.12 over λ = 0.05).
     */
    @Test
    void onCacheSkewTheLoopIsWithinTheTargetByTheThirdWindowAndThenMovesLittle() {
        double first = 0;
        double later = 0;
        for (long seed = 1; seed <= 8; seed++) {
            Run r = loop("cache-skew", seed, ROUNDS, 3);
            Score third = r.after().get(2);
            System.out.printf("closed loop cache-skew seed %d: after the third window %.3f/%.3f, first plan moved %.1f GB,"
                    + " rounds 4-%d %.1f GB%n", seed, third.cpuMaxOverMean(), third.diskMaxOverMean(), r.first() / 1e9, ROUNDS,
                    r.later() / 1e9);
            assertThat(Math.max(third.cpuMaxOverMean(), third.diskMaxOverMean())).as("seed %d by the third window", seed)
                    .isLessThanOrEqualTo(1.10);
            first += r.first();
            later += r.later();
        }
        assertThat(first).isPositive();
        assertThat(later / first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.10);
    }

    /**
     * Once balanced, window noise moves next to nothing: Δ is a maximum over nodes, so noise alone
     * lifts it above λ now and then. On background seed 1 the truth stayed the same while the
     * measured Δ rose from 0.048 to 0.097, and a plan made on it took the cluster from 1.047/1.057
     * to 1.088/1.108. The hysteresis (planning resumes above 2λ) leaves such windows alone; the
     * issue's target is that the windows after the third move at most 10% of the first's data.
     */
    @Test
    void onceBalancedTheWindowsAfterTheThirdMoveUnderATenthOfTheFirst() {
        double first = 0;
        double later = 0;
        for (long seed = 1; seed <= 2; seed++) {
            Run r = loop("background", seed, 8, 3);
            System.out.printf("closed loop background seed %d: first plan moved %.1f GB, rounds 4-8 %.1f GB, end %.3f/%.3f%n",
                    seed, r.first() / 1e9, r.later() / 1e9, r.end().cpuMaxOverMean(), r.end().diskMaxOverMean());
            assertThat(r.end().cpuMaxOverMean()).as("true CPU Max/Mean after 8 rounds, seed " + seed).isLessThanOrEqualTo(1.10);
            assertThat(r.end().diskMaxOverMean()).as("true disk Max/Mean after 8 rounds, seed " + seed).isLessThanOrEqualTo(1.10);
            first += r.first();
            later += r.later();
        }
        assertThat(first).isPositive();
        assertThat(later / first).as("data moved after the third window / by the first").isLessThan(0.10);
    }

    /**
     * Under node-speed (each node's CPU 0.7-1.4 times the work) a forecast lands a few percent off,
     * and the measured Δ of a cluster within 1.10 rises past 2λ on a noisy window now and then. The
     * plans that chased either moved 36% of the first plans' data after the third window on ycsb-b
     * seeds 13-24 (`libra loop --truth node-speed`). The band held over the mean of the windows
     * since a region last moved, and after a plan within its own forecast error of λ, keeps the runs
     * that are within 1.10 by the third window under the tenth.
     */
    @Test
    void underNodeSpeedTheRunsWithinTheTargetByTheThirdWindowThenMoveUnderATenthOfTheFirst() {
        double first = 0;
        double later = 0;
        for (long seed = 13; seed <= 24; seed++) {
            ClosedLoop.Run r = underNodeSpeed("ycsb-b", seed);
            Score third = r.after().get(2);
            if (Math.max(third.cpuMaxOverMean(), third.diskMaxOverMean()) <= 1.10) {
                first += r.moved().get(0);
                later += afterTheThird(r);
            }
        }
        assertThat(first).as("runs within 1.10 by the third window").isPositive();
        assertThat(later / first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.10);
    }

    /**
     * Under node-speed, byte-cpu's plans near balance traded regions both ways between the same nodes
     * (seed 21, window 5: 300 moves for a forecast 0.103 → 0.050, 206 of them opposite pairs; true
     * 1.080/1.087 → 1.096/1.085), and seeds 1-12 moved 123% of their first plans' data after the third
     * window. Weighing each prefix with the error its gross flow is expected to bring (FlowFit, learnt
     * from each check) keeps the trades that pay (56%), and a plan after the first stops inside the
     * hysteresis band rather than at λ (Landing): under 40% (28%), with 10 of 12 within 1.10 at the
     * end (10 before either change). A region CPU-heavy on a slow node is disk-heavy on a fast one,
     * where the interference constraint refused it; headroom relief after a checked forecast lets it
     * go while the fast node has disk room: 9 of 12 within 1.10 by the third window (6 without).
     */
    @Test
    void underNodeSpeedByteCpuNoLongerTradesRegionsForTheLastHundredths() {
        Tally t = new Tally();
        for (long seed = 1; seed <= 12; seed++) {
            t.add(underNodeSpeed("byte-cpu", seed));
        }
        assertThat(t.later / t.first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.40);
        assertThat(t.within).as("runs within 1.10 in both dimensions at the end").isGreaterThanOrEqualTo(10);
        assertThat(t.byThird).as("runs within 1.10 in both dimensions by the third window").isGreaterThanOrEqualTo(9);
    }

    /**
     * Under node-speed, background and cache-skew kept planning down to λ after their third window:
     * each plan's last hundredths were lifted back above λ by the window's noise and the forecast's
     * error, and seeds 1-12 moved 62% of their first plans' data after the third window (background
     * seed 11: 20.5 GiB after a first plan of 1.0 GiB). Landing inside the hysteresis band, short of
     * 2λ by the last forecast's error, moves 24%, with 22 of 24 runs within 1.10 at the end (23 before).
     */
    @Test
    void underNodeSpeedLaterPlansLandInsideTheBandRatherThanChaseLambda() {
        Tally t = new Tally();
        for (String scenario : List.of("background", "cache-skew")) {
            for (long seed = 1; seed <= 12; seed++) {
                t.add(underNodeSpeed(scenario, seed));
            }
        }
        assertThat(t.later / t.first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.35);
        assertThat(t.within).as("runs within 1.10 in both dimensions at the end").isGreaterThanOrEqualTo(21);
    }

    /**
     * Under disk-speed each node's device costs 0.7 to 1.4 times the disk bytes of the same work.
     * paper-mixgraph seeds 1-12 were within 1.10 by the third window in 8 runs and at the end in 10;
     * with disk speeds of a node's own, and their rival where no window has shown them, 11 and 11.
     */
    @Test
    void underDiskSpeedPaperMixgraphReachesTheTargetByTheThirdWindow() {
        Tally t = new Tally();
        for (long seed = 1; seed <= 12; seed++) {
            t.add(ClosedLoop.run(Scenario.byName("paper-mixgraph"), seed, Planner.builder().build(), 8,
                    CostModel.Form.DISK_SPEED));
        }
        assertThat(t.byThird).as("runs within 1.10 in both dimensions by the third window").isGreaterThanOrEqualTo(11);
        assertThat(t.within).as("runs within 1.10 in both dimensions at the end").isGreaterThanOrEqualTo(11);
    }

    /**
     * Two shapes added after the estimate was written, so nothing in it was tuned to them: disk
     * that grows with its utilisation (disk-contention) and with the data a node holds (data-size:
     * a large cold region makes its neighbours' reads dearer). One window cannot show either, and
     * most first plans here land above 1.10 (heterogeneous under disk-contention: 1.11-1.23 disk on
     * seeds 2-6; ycsb-d under data-size: 1.12-1.23 on seeds 1, 3, 4, 5); the checks and the windows
     * after them bring every run within 1.10 by the third window, and little moves after it.
     */
    @Test
    void onShapesTheEstimateWasNotWrittenAgainstTheLoopStillConvergesByTheThirdWindow() {
        Tally t = new Tally();
        for (long seed = 1; seed <= 6; seed++) {
            t.add(ClosedLoop.run(Scenario.byName("heterogeneous"), seed, Planner.builder().build(), 8,
                    CostModel.Form.DISK_CONTENTION));
            t.add(ClosedLoop.run(Scenario.byName("ycsb-d"), seed, Planner.builder().build(), 8, CostModel.Form.DATA_SIZE));
        }
        assertThat(t.firstWithin).as("first plans within 1.10 in both dimensions").isLessThanOrEqualTo(5);
        assertThat(t.byThird).as("runs within 1.10 in both dimensions by the third window").isEqualTo(12);
        assertThat(t.later / t.first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.10);
    }

    /** Bytes moved by the first plans and after the third window, and the runs within 1.10 in both after the first plan, by the third window and at the end of 8. */
    private static final class Tally {
        double first;
        double later;
        int firstWithin;
        int byThird;
        int within;

        void add(ClosedLoop.Run r) {
            Score once = r.after().get(0);
            Score third = r.after().get(2);
            firstWithin += Math.max(once.cpuMaxOverMean(), once.diskMaxOverMean()) <= 1.10 ? 1 : 0;
            Score end = r.after().get(7);
            byThird += Math.max(third.cpuMaxOverMean(), third.diskMaxOverMean()) <= 1.10 ? 1 : 0;
            within += Math.max(end.cpuMaxOverMean(), end.diskMaxOverMean()) <= 1.10 ? 1 : 0;
            first += r.moved().get(0);
            later += afterTheThird(r);
        }
    }

    /** Eight rounds of {@code scenario} under node-speed, as `libra loop --truth node-speed` runs them. */
    private static ClosedLoop.Run underNodeSpeed(String scenario, long seed) {
        return ClosedLoop.run(Scenario.byName(scenario), seed, Planner.builder().build(), 8, CostModel.Form.NODE_SPEED);
    }

    /** The bytes moved in rounds 4-8. */
    private static double afterTheThird(ClosedLoop.Run r) {
        return r.moved().subList(3, 8).stream().mapToDouble(Double::doubleValue).sum();
    }

    /**
     * One closed loop: bytes moved by the first plan and by the plans from round {@code from}
     * (0-based) on, and the true Max/Mean after each round.
     */
    record Run(double first, double later, List<Score> after) {
        Score end() {
            return after.get(after.size() - 1);
        }
    }

    /**
     * On nodes of unequal capacity with replicated writes, a move shifts less than its region's
     * share of its node's total (replicas applying writes for regions led elsewhere stay put), so
     * the first plan lands at 1.10-1.36. The realised share measured on its moves corrects the
     * next plans: by the third window 5 of seeds 1-6 are within 1.10 in both dimensions (1 before:
     * 1.058/1.120, 1.039/1.147, 1.045/1.181, 1.053/1.138, 1.028/1.109, 1.038/1.061), and the rounds
     * after the third move under a quarter of the first plan's data (43% before). With the mapping's
     * reads and writes scaled apart on one window (2026-11-27), seed 5's first plan lands at
     * 1.096/1.170 instead of 1.314/1.311, but seed 2's second plan leaves disk at 1.274 and its
     * later rounds move 4.0 GB: 20.2% in all, against 6% before that change. With smaller steps
     * held to a smaller share of the forecast error (2026-11-27, later), seed 4 moves 1.4 GB after
     * the third window instead of 0.3 GB: 23.7%. With no learnt block cache on nodes of unequal
     * capacity and weights learnt node by node where the moves show them (2026-11-28), seed 2 is at
     * 1.119/1.145 by the third window and moves 4.4 GB after it: 17.0% in all (seeds 1-36 by
     * `libra loop`: 13.4% against 10.8%, 33 within 1.10 by the third window against 32).
     */
    @Test
    void heterogeneousNodesMostlyReachTheTargetByTheThirdWindow() {
        int within = 0;
        double first = 0;
        double later = 0;
        for (long seed = 1; seed <= 6; seed++) {
            Run r = loop("heterogeneous", seed, 8, 3);
            Score third = r.after().get(2);
            System.out.printf("closed loop heterogeneous seed %d: after the third window %.3f/%.3f, first plan moved %.1f GB,"
                    + " rounds 4-8 %.1f GB%n", seed, third.cpuMaxOverMean(), third.diskMaxOverMean(), r.first() / 1e9, r.later() / 1e9);
            within += third.cpuMaxOverMean() <= 1.10 && third.diskMaxOverMean() <= 1.10 ? 1 : 0;
            first += r.first();
            later += r.later();
        }
        assertThat(within).as("seeds within 1.10 in both dimensions by the third window").isGreaterThanOrEqualTo(5);
        assertThat(later / first).as("data moved after the third window / by the first").isLessThan(0.25);
    }

    /**
     * One window of six nodes of 4, 8 and 12 cores is too few samples for every weight; the mapping
     * with one background per node of mean size, each node carrying it in proportion to its
     * capacity, is what it can fit. With it the first plan's worse dimension averages 1.188 over
     * seeds 1-6 (1.155, 1.108, 1.155, 1.193, 1.314, 1.204); with the mapping alone, which shares each
     * node's background among its regions as if it moved with them, 1.316 (1.267-1.391).
     */
    @Test
    void heterogeneousFirstPlansLandWithinAFifthOfTheTargetOnAverage() {
        double sum = 0;
        for (long seed = 1; seed <= 6; seed++) {
            Score first = loop("heterogeneous", seed, 1, 1).after().get(0);
            System.out.printf("heterogeneous seed %d: after the first plan %.3f/%.3f%n", seed, first.cpuMaxOverMean(),
                    first.diskMaxOverMean());
            sum += Math.max(first.cpuMaxOverMean(), first.diskMaxOverMean());
        }
        assertThat(sum / 6).as("the first plan's worse dimension, mean over seeds 1-6").isLessThanOrEqualTo(1.20);
    }

    static Run loop(String scenario, long seed, int rounds, int from) {
        Scenario s = Scenario.byName(scenario);
        CostModel cost = CostModel.drawn(s, seed);
        SimCluster cluster = SimCluster.initial(s, seed);
        Workload w = new Simulator(cost).workloads(s, seed, cluster).get(0);
        Executor exec = new Executor(cost, Simulator.WINDOW_SECONDS);
        Planner planner = Planner.builder().build();
        List<ClusterSnapshot> history = new ArrayList<>();
        List<Score> after = new ArrayList<>();
        Plan previous = null;
        Executor.Done done = exec.run(cluster, null, w);
        double[] moved = new double[3];
        for (int round = 0, window = 0; round < rounds; round++) {
            ClusterSnapshot now = cluster.measure(w, done.truth(), Simulator.WINDOW_SECONDS,
                    START.plusSeconds(60L * window), new SplittableRandom(seed * 1_000_003L + window));
            previous = planner.plan(new PlanRequest(now, history, previous, false)).plan();
            history.add(now);
            if (history.size() > Simulator.HISTORY_WINDOWS) {
                history.remove(0);
            }
            done = exec.run(cluster, previous, w);
            window++;
            int slot = round == 0 ? 0 : round >= from ? 1 : 2;
            moved[slot] += done.movedBytes();
            while (!exec.idle()) {
                done = exec.run(cluster, null, w);
                window++;
                moved[slot] += done.movedBytes();
            }
            done = exec.run(cluster, null, w); // quiet: nothing moves
            window++;
            after.add(cluster.score(cost, w));
        }
        return new Run(moved[0], moved[1], after);
    }
}
