package io.libra.core.sim;

import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.ReplayedRounds;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One scenario and seed run as a master or sidecar runs Libra: each round measures a quiet window,
 * plans on it with the last {@value Simulator#HISTORY_WINDOWS} windows and the previous plan (the
 * fluctuation guard off), and carries the plan out to the end before the next window is measured.
 * Scored on the scenario's hidden cost model, which the planner never sees. Deterministic for a
 * scenario, seed and planner.
 */
public final class ClosedLoop {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final long seed;
    private final CostModel cost;
    private final SimCluster cluster;
    private final Executor exec;
    private final Planner planner;
    private final List<ClusterSnapshot> history = new ArrayList<>();
    private final boolean recall;
    private Workload workload;
    private Plan previous;
    private int window;
    /** The actions of every plan so far, and how many of them the executor refused. */
    private int planned;
    private int refused;

    public ClosedLoop(Scenario s, long seed, Planner planner) {
        this(s, seed, planner, CostModel.Form.BLOCKS);
    }

    /** The loop on the scenario's hidden model in another shape ({@link CostModel.Form}). */
    public ClosedLoop(Scenario s, long seed, Planner planner, CostModel.Form form) {
        this(s, seed, planner, form, false);
    }

    /**
     * The loop as run by a caller that keeps only the windows, as the CLI is given them without
     * {@code --previous-plan} ({@code recall}): each round's previous plan is recalled from them
     * ({@link ReplayedRounds}).
     */
    public ClosedLoop(Scenario s, long seed, Planner planner, CostModel.Form form, boolean recall) {
        this.seed = seed;
        this.recall = recall;
        this.cost = CostModel.drawn(s, seed).withForm(form);
        this.cluster = SimCluster.initial(s, seed);
        this.workload = new Simulator(cost).workloads(s, seed, cluster).get(0);
        this.exec = new Executor(cost, Simulator.WINDOW_SECONDS);
        this.planner = planner;
        exec.run(cluster, null, workload);
    }

    /**
     * The true Max/Mean after each round, the bytes each round moved, and the actions of all its
     * plans and how many of them the executor refused (as a store refuses a split of a region it
     * is moving, or a move of a region not where the plan says).
     */
    public record Run(List<Score> after, List<Double> moved, int planned, int refused) {
        public Run {
            after = List.copyOf(after);
            moved = List.copyOf(moved);
        }
    }

    /** {@code rounds} rounds of a fresh loop, on the hidden model in the shape {@code form}. */
    public static Run run(Scenario s, long seed, Planner planner, int rounds, CostModel.Form form) {
        return run(new ClosedLoop(s, seed, planner, form), rounds);
    }

    /** {@code rounds} rounds of {@code loop}. */
    public static Run run(ClosedLoop loop, int rounds) {
        List<Score> after = new ArrayList<>(rounds);
        List<Double> moved = new ArrayList<>(rounds);
        for (int r = 0; r < rounds; r++) {
            moved.add(loop.round());
            after.add(loop.score());
        }
        return new Run(after, moved, loop.planned, loop.refused);
    }

    /** One round: measure, plan, carry the plan out; the bytes it moved. */
    public double round() {
        ClusterSnapshot now = measure();
        Plan last = recall ? ReplayedRounds.lastPlan(planner, history, now).orElse(null) : previous;
        previous = planner.plan(new PlanRequest(now, history, last, false)).plan();
        history.add(now);
        if (history.size() > Simulator.HISTORY_WINDOWS) {
            history.remove(0);
        }
        Executor.Done done = exec.run(cluster, previous, workload);
        planned += previous.actions().size();
        refused += done.skipped();
        double moved = done.movedBytes();
        while (!exec.idle()) {
            moved += exec.run(cluster, null, workload).movedBytes();
        }
        return moved;
    }

    /** The next window, as the monitoring reports it: what a round plans on. */
    ClusterSnapshot measure() {
        return cluster.measure(workload, exec.run(cluster, null, workload).truth(), Simulator.WINDOW_SECONDS,
                START.plusSeconds(60L * window++), new SplittableRandom(seed * 1_000_003L + window));
    }

    /** The truth of the cluster as it stands, on the hidden cost model. */
    public Score score() {
        return cluster.score(cost, workload);
    }

    /** The plan of the last round; null before the first. */
    public Plan lastPlan() {
        return previous;
    }

    public Workload workload() {
        return workload;
    }

    /** The workload from the next round on (a hot spot that moves, for instance). */
    public void workload(Workload w) {
        this.workload = w;
    }
}
