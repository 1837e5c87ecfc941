package io.libra.cassandra;

import io.libra.cassandra.collect.RingModel;
import io.libra.core.Assessment;
import io.libra.core.PlanRequest;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.History;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.plan.Plan;
import io.libra.core.ring.RingApplier;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingPlannerConfig;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.schedule.StrategyOutcome;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One planning round of the sidecar through core's planner, as every adapter plans: the estimate
 * learns from the last {@code historyWindows} windows and checks the forecast of the last plan
 * that was carried out ({@link Planner#assess}); the ring search runs on that estimate, turning
 * conservative after a forecast that missed by more than it claimed; {@link Planner#finish} then
 * holds back a gain within the measured error and attaches the forecast, the reasons and the
 * meters. A change in ring membership drops the history and the plan to check. With a
 * {@link PlanningStore} that memory survives a restart: it is restored at construction and saved
 * after every change. Thread-safe.
 */
public final class RingPlanning {
    private final Planner planner;
    private final RingPlannerConfig base;
    private final int historyWindows;
    private final Deque<ClusterSnapshot> history = new ArrayDeque<>();
    private final PlanningStore store;
    private final String restored;
    private Plan executed;
    private Set<String> members;

    /**
     * @param planner        core's planner (learning on, its meters on the sidecar's registry)
     * @param historyWindows earlier windows kept for the estimate (0: this window only)
     * @param store          where the memory is kept across restarts, or null for memory only
     */
    RingPlanning(Planner planner, RingPlannerConfig base, int historyWindows, PlanningStore store) {
        this.planner = planner;
        this.base = base;
        this.historyWindows = historyWindows;
        this.store = store;
        PlanningStore.Loaded loaded = store == null ? new PlanningStore.Loaded(null, null) : store.load(historyWindows);
        this.restored = loaded.line();
        if (loaded.saved() != null) {
            members = new TreeSet<>(loaded.saved().members());
            history.addAll(loaded.saved().windows());
            executed = loaded.saved().executed();
        }
    }

    public RingPlanning(Planner planner, RingPlannerConfig base, int historyWindows) {
        this(planner, base, historyWindows, null);
    }

    /**
     * What a round produced.
     *
     * @param plan         the finished plan (forecast, estimation, reasons)
     * @param ring         the ring search's own result (its method and comparison)
     * @param conservative whether the last forecast missed by more than it claimed, so the search was conservative
     * @param windows      earlier windows the estimate used
     * @param dropped      why history was dropped this round, or null
     */
    public record Round(Plan plan, RingPlan ring, boolean conservative, int windows, String dropped) {
    }

    public synchronized Round plan(RingModel model) {
        ClusterSnapshot now = model.snapshot();
        String dropped = membershipChange(now);
        Assessment a;
        try {
            a = planner.assess(new PlanRequest(now, List.copyOf(history), executed, false), m -> m);
        } catch (History.MismatchException e) {
            dropped = "history dropped: " + e.getMessage();
            history.clear();
            a = planner.assess(new PlanRequest(now, List.of(), executed, false), m -> m);
        }
        int used = history.size();
        RingPlannerConfig config = a.conservative() ? base.conservative(a.config().lambda(), a.config().benefitThreshold())
                : base;
        RingLoad ring = model.ringOn(a.model());
        RingPlan searched = new RingPlanner(config).plan(ring);
        Plan plan = searched.toPlan();
        StrategyOutcome outcome = new StrategyOutcome(plan,
                SnapshotRing.perNode(now.nodes(), RingApplier.apply(ring, plan.actions()).loadsAfter()));
        PlanResult result = planner.finish(outcome, a);
        remember(now);
        save();
        return new Round(result.plan(), searched, a.conservative(), used, dropped);
    }

    /** The plan a job carried out in full: the next windows check its forecast. */
    public synchronized void executed(Plan plan) {
        executed = plan;
        save();
    }

    /** A job that started or ended part-way: the ring will be in no state the last plan forecast. */
    public synchronized void forgetExecuted() {
        executed = null;
        save();
    }

    /** Earlier windows kept now. */
    public synchronized int windows() {
        return history.size();
    }

    /** Whether a carried-out plan's forecast waits for the next window to check it. */
    public synchronized boolean forecastToCheck() {
        return executed != null;
    }

    /** What restoring the saved memory found at start (log line), or null when nothing was saved. */
    public String restored() {
        return restored;
    }

    private void save() {
        if (store != null && members != null) {
            store.save(new PlanningStore.Saved(members, List.copyOf(history), executed));
        }
    }

    private String membershipChange(ClusterSnapshot now) {
        Set<String> ids = now.nodes().stream().map(Node::id).collect(Collectors.toCollection(TreeSet::new));
        String why = null;
        if (members != null && !members.equals(ids)) {
            why = "ring membership changed " + members + " -> " + ids + ": history and the forecast to check dropped";
            history.clear();
            executed = null;
        }
        members = ids;
        return why;
    }

    private void remember(ClusterSnapshot window) {
        if (historyWindows == 0) {
            return;
        }
        history.addLast(window);
        while (history.size() > historyWindows) {
            history.removeFirst();
        }
    }
}
