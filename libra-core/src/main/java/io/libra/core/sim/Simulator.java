package io.libra.core.sim;

import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.PlanResult;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.SchedulerConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The time-stepped simulator. Each strategy runs on its own copy of the same starting cluster
 * under the same workload and the same measurement noise; each round it measures a window,
 * plans from the snapshot with {@link Planner} and hands the plan to the executor, which
 * carries it out during the next window. After the last round, the last plan is carried out,
 * migrations drain, and a quiet window gives the end state.
 */
public final class Simulator {
    /** The strategy that never plans: the reference for throughput and latency. */
    public static final String NONE = "none";
    public static final double WINDOW_SECONDS = 60;
    /** Earlier windows the planner learns from, as an adapter keeps them: bounded. */
    public static final int HISTORY_WINDOWS = 3;
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final CostModel cost;

    public Simulator(CostModel cost) {
        this.cost = cost;
    }

    /**
     * @param strategies core strategy names; {@code none} is always run as well
     * @param guard      whether the planner sees the previous window (fluctuation guard)
     */
    /** @param cpuWeight 2d-wtd's weight w of CPU in {@code w·A′ + (1 − w)·B′} */
    public record Config(Scenario scenario, long seed, List<String> strategies, double lambda, boolean guard,
                         boolean learn, double cpuWeight) {
        public Config(Scenario scenario, long seed, List<String> strategies, double lambda, boolean guard,
                      boolean learn) {
            this(scenario, seed, strategies, lambda, guard, learn, SchedulerConfig.DEFAULT.cpuWeight());
        }

        public Config(Scenario scenario, long seed, List<String> strategies, double lambda, boolean guard) {
            this(scenario, seed, strategies, lambda, guard, true);
        }
    }

    /** Told after each simulated window, to draw progress. */
    public interface Progress {
        void step(int done, int total);
    }

    public SimulationResult run(Config cfg, Progress progress) {
        Scenario s = cfg.scenario();
        SimCluster start = SimCluster.initial(s, cfg.seed());
        List<Workload> workloads = workloads(s, cfg.seed(), start);
        List<String> names = new ArrayList<>();
        names.add(NONE);
        cfg.strategies().stream().filter(n -> !n.equals(NONE)).forEach(names::add);
        int total = names.size() * s.rounds();
        List<StrategyRun> runs = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            int offset = k * s.rounds();
            runs.add(runOne(names.get(k), cfg, start.copy(), workloads,
                    (r, n) -> progress.step(offset + r, total)));
        }
        return withQueueing(cfg, start.score(cost, workloads.get(0)), runs, workloads.get(0).totalOps());
    }

    /** The starting state of a scenario as a snapshot, as the store would report its first window. */
    public ClusterSnapshot snapshot(Scenario s, long seed, int histogramBuckets) {
        SimCluster start = SimCluster.initial(s, seed);
        Workload unit = s.workload(seed, 0);
        Workload w = unit.withTotalOps(calibrate(start, unit));
        List<Placement> placements = new ArrayList<>();
        start.regions().forEach(r -> placements.add(new Placement(r.traffic(w), r.node())));
        return start.measure(w, cost.truth(start.nodes(), placements), WINDOW_SECONDS, START,
                new SplittableRandom(seed * 1_000_003L), histogramBuckets);
    }

    /**
     * A scenario's workload per round, calibrated on its starting cluster
     * ({@link SimCluster#initial}); with {@link SimCluster#traffic} and {@link CostModel#score} this
     * is what other tools need to score their own placements on the same hidden model.
     */
    public List<Workload> workloads(Scenario s, long seed) {
        return workloads(s, seed, SimCluster.initial(s, seed));
    }

    /** The rounds' workloads, scaled once so the starting cluster runs at the scenario's utilisation. */
    List<Workload> workloads(Scenario s, long seed, SimCluster start) {
        Workload first = s.workload(seed, 0);
        double ops = calibrate(start, first);
        List<Workload> out = new ArrayList<>(s.rounds());
        Workload current = first.withTotalOps(ops);
        for (int r = 0; r < s.rounds(); r++) {
            if (r > 0 && s.shiftEvery() > 0 && r % s.shiftEvery() == 0) {
                current = s.workload(seed, r).withTotalOps(ops);
            }
            out.add(current);
        }
        return out;
    }

    /** Requests/s giving the target mean CPU utilisation, or less if the busiest node would saturate. */
    double calibrate(SimCluster c, Workload unit) {
        double cores = c.nodes().stream().mapToDouble(NodeSpec::cpuCores).sum();
        Score at0 = c.score(cost, unit.withTotalOps(0));
        Score at1 = c.score(cost, unit.withTotalOps(1000));
        double fixed = at0.nodes().stream().mapToDouble(NodeTruth::cpu).sum();
        double perKilo = at1.nodes().stream().mapToDouble(NodeTruth::cpu).sum() - fixed;
        double ops = 1000 * (Scenario.TARGET_CPU_UTILISATION * cores - fixed) / perKilo;
        double peak = c.score(cost, unit.withTotalOps(ops)).peakUtilisation();
        if (peak > Scenario.MAX_PEAK_UTILISATION) {
            ops *= Scenario.MAX_PEAK_UTILISATION / peak;
        }
        return ops;
    }

    private StrategyRun runOne(String name, Config cfg, SimCluster cluster, List<Workload> workloads, Progress progress) {
        Optional<Planner> planner = name.equals(NONE) ? Optional.empty() : Optional.of(Planner.builder().strategy(name)
                .config(SchedulerConfig.DEFAULT.withLambda(cfg.lambda()).withCpuWeight(cfg.cpuWeight()))
                .learning(cfg.learn()).build());
        Executor exec = new Executor(cost, WINDOW_SECONDS);
        List<RoundStats> rounds = new ArrayList<>();
        Plan pending = null;
        Plan previousPlan = null;
        List<ClusterSnapshot> history = new ArrayList<>();
        for (int r = 0; r < workloads.size(); r++) {
            Workload w = workloads.get(r);
            Executor.Done done = exec.run(cluster, pending, w);
            ClusterSnapshot snap = cluster.measure(w, done.truth(), WINDOW_SECONDS,
                    START.plusSeconds((long) (r * WINDOW_SECONDS)), new SplittableRandom(cfg.seed() * 1_000_003L + r));
            String status = "-";
            double millis = 0;
            double predictionError = Double.NaN;
            pending = null;
            if (planner.isPresent()) {
                PlanResult res = planner.get().plan(new PlanRequest(snap, history, previousPlan, cfg.guard()));
                pending = res.plan();
                previousPlan = pending;
                status = res.plan().status().name().toLowerCase(Locale.ROOT);
                millis = res.planTime().toNanos() / 1e6;
                predictionError = res.plan().estimation().lastPredictionError();
            }
            history.add(snap);
            if (history.size() > HISTORY_WINDOWS) {
                history.remove(0);
            }
            rounds.add(stats(cluster.nodes(), r, done, pending, status, millis, predictionError));
            progress.step(r + 1, workloads.size());
        }
        Workload last = workloads.get(workloads.size() - 1);
        rounds.add(stats(cluster.nodes(), workloads.size(), exec.run(cluster, pending, last), null, "settle", 0, Double.NaN));
        while (!exec.idle()) {
            rounds.add(stats(cluster.nodes(), rounds.size(), exec.run(cluster, null, last), null, "settle", 0, Double.NaN));
        }
        return totals(name, rounds, cluster.score(cost, last));
    }

    private static RoundStats stats(List<NodeSpec> nodes, int round, Executor.Done d, Plan plan, String status,
                                    double millis, double predictionError) {
        Score s = CostModel.score(nodes, d.truth());
        return new RoundStats(round, s.cpuMaxOverMean(), s.diskMaxOverMean(), d.moves(), d.splits(), d.merges(),
                d.skipped(), d.movedBytes(), plan == null ? 0 : plan.actions().size(), status, millis, predictionError);
    }

    private static StrategyRun totals(String name, List<RoundStats> rounds, Score end) {
        int moves = 0;
        int splits = 0;
        int merges = 0;
        int skipped = 0;
        double moved = 0;
        double millis = 0;
        for (RoundStats r : rounds) {
            moves += r.moves();
            splits += r.splits();
            merges += r.merges();
            skipped += r.skipped();
            moved += r.movedBytes();
            millis += r.planMillis();
        }
        return new StrategyRun(name, rounds, end, moves, splits, merges, skipped, moved, millis, 1, 0);
    }

    private static SimulationResult withQueueing(Config cfg, Score initial, List<StrategyRun> runs, double ops) {
        Scenario s = cfg.scenario();
        Score none = runs.get(0).end();
        double offered = 0.9 / none.peakUtilisation();
        double noneScale = QueueingModel.saturationScale(none);
        List<StrategyRun> out = new ArrayList<>();
        for (StrategyRun r : runs) {
            out.add(r.withQueueing(QueueingModel.saturationScale(r.end()) / noneScale,
                    QueueingModel.p99Millis(r.end(), offered)));
        }
        return new SimulationResult(s.name(), s.description(), cfg.seed(), s.nodes(), s.regions(), s.rounds(),
                initial, out, offered, ops);
    }
}
