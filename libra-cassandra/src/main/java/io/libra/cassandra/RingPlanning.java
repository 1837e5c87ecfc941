package io.libra.cassandra;

import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.PlanRequest;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.estimate.History;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.Plan;
import io.libra.core.ring.HalfReturns;
import io.libra.core.ring.RingPlannerConfig;
import io.libra.core.ring.RingStrategy;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * One planning round of the sidecar through core's planner, as every adapter plans:
 * {@link Planner#plan(PlanRequest)} with core's {@link RingStrategy} for this window's ring.
 * The estimate learns from the last {@code history_windows} windows and checks the forecast of
 * the last plan that was carried out (conservative after a miss: λ and the benefit threshold
 * raised to the error); the fluctuation guard compares this window with the last one kept; the
 * planner then holds back a gain within the measured error and, after a round that found the ring
 * balanced (with no job since), any Δ up to 2λ; it attaches the forecast, reasons and meters.
 * The operator's λ and {@code min_improvement} are the planner's λ and benefit threshold.
 * A change in ring membership drops the plan to check (the ring changed by more than its moves) and
 * keeps the windows: the cost model learnt on them prices the arcs of a node that has just joined,
 * which has no window of its own yet (core drops them when they share fewer than half the ring's
 * nodes, {@link History#check}). With a
 * {@link PlanningStore} that memory survives a restart: it is restored at construction and saved
 * after every change. Thread-safe.
 */
public final class RingPlanning {
    private final Planner planner;
    private final RoundRing ring;
    private final boolean guarded;
    private final int historyWindows;
    private final double lambda;
    private final Deque<ClusterSnapshot> history = new ArrayDeque<>();
    private final PlanningStore store;
    private final String restored;
    private Plan executed;
    /** The tokens nodes left in the last rounds, which a new plan goes only halfway back toward (core's HalfReturns). */
    private HalfReturns returns = HalfReturns.NONE;
    private Set<String> members;
    /** False for the first round after the ring was changed on purpose: that change is not fluctuation. */
    private boolean guardNext = true;
    /** Whether the last round found the ring balanced and nothing ran since: Δ must then pass 2λ (core's hysteresis). */
    private boolean balancedLast;

    /**
     * @param config   the operator's planner settings
     * @param registry where core's planner meters go, or null
     * @param store    where the memory is kept across restarts, or null for memory only
     */
    RingPlanning(SidecarConfig.Planner config, MeterRegistry registry, PlanningStore store) {
        RingPlannerConfig search = new RingPlannerConfig(config.lambda, config.maxMoves, config.maxMoveBytes,
                config.slicesPerSubrange, config.minImprovement);
        this.ring = new RoundRing(search);
        this.guarded = config.fluctuationThreshold > 0;
        this.planner = Planner.builder().strategy(ring).learning(true).meterRegistry(registry)
                .config(scheduler(config)).estimation(config.estimation())
                .fluctuationGuard(guarded ? new FluctuationGuard(config.fluctuationThreshold) : FluctuationGuard.DEFAULT)
                .build();
        this.historyWindows = config.historyWindows;
        this.lambda = config.lambda;
        this.store = store;
        PlanningStore.Loaded loaded = store == null ? new PlanningStore.Loaded(null, null) : store.load(historyWindows);
        this.restored = loaded.line();
        if (loaded.saved() != null) {
            members = new TreeSet<>(loaded.saved().members());
            history.addAll(loaded.saved().windows());
            executed = loaded.saved().executed();
            returns = loaded.saved().returns();
        }
    }

    public RingPlanning(SidecarConfig.Planner config, MeterRegistry registry) {
        this(config, registry, null);
    }

    /** The operator's λ and min_improvement as the planner's λ and benefit threshold, the rest core's defaults. */
    static SchedulerConfig scheduler(SidecarConfig.Planner config) {
        SchedulerConfig d = SchedulerConfig.DEFAULT;
        return new SchedulerConfig(config.lambda, config.minImprovement, d.maxActions(), d.splitting(), d.lazy(),
                d.mergeColdBelow(), d.cpuWeight());
    }

    /** The planner every round goes through. */
    Planner planner() {
        return planner;
    }

    /**
     * What a round produced.
     *
     * @param plan         the finished plan (forecast, estimation, reasons); {@code SUSPENDED} when the load was in flux
     * @param conservative whether the last forecast missed by more than it claimed, so the search was conservative
     * @param windows      earlier windows the estimate used
     * @param dropped      what this round dropped of the planning memory and why (the forecast to check when
     *                     ring membership changed, or windows that do not belong with this one), or null
     * @param check        the last executed plan's forecast checked against this window, when there was one
     */
    public record Round(Plan plan, boolean conservative, int windows, String dropped, Optional<PredictionCheck> check) {
    }

    public synchronized Round plan(RingModel model) {
        ClusterSnapshot now = model.snapshot();
        String dropped = membershipChange(now);
        returns = returns.next();
        ring.set(new RingStrategy(SnapshotRing.tokens(now), model.topology(), ring.search, returns));
        PlanResult result;
        try {
            result = planner.plan(request(now));
        } catch (History.MismatchException e) {
            dropped = "history dropped: " + e.getMessage();
            history.clear();
            result = planner.plan(request(now));
        }
        int used = history.size();
        Optional<PredictionCheck> check = result.check();
        guardNext = true;
        balancedLast = result.plan().isBalanced();
        if (executed != null && PredictionCheck.heldBack(result.plan(), lambda)) {
            // the held plan carries the last moves' forecast on: the next check is then one carried by a
            // hold, which a measured step can end (core's MeasuredStep), as in core's closed loop
            executed = result.plan();
        }
        remember(now);
        save();
        return new Round(result.plan(), result.conservative(), used, dropped, check);
    }

    private PlanRequest request(ClusterSnapshot now) {
        return new PlanRequest(now, List.copyOf(history), executed, guarded && guardNext, balancedLast);
    }

    /** A job moved tokens: the next window's change from the last one is the move, not fluctuation. */
    public synchronized void ringMoved() {
        guardNext = false;
        balancedLast = false;
    }

    /** The plan a job carried out in full: the next windows check its forecast. */
    public synchronized void executed(Plan plan) {
        executed = plan;
        returns = returns.after(plan);
        balancedLast = false;
        save();
    }

    /** A job that started or ended part-way: the ring will be in no state the last plan forecast. */
    public synchronized void forgetExecuted() {
        executed = null;
        balancedLast = false;
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

    /** The tokens nodes left in the last rounds, which a new plan goes only halfway back toward. */
    synchronized HalfReturns returns() {
        return returns;
    }

    /** What restoring the saved memory found at start (log line), or null when nothing was saved. */
    public String restored() {
        return restored;
    }

    private void save() {
        if (store != null && members != null) {
            store.save(new PlanningStore.Saved(members, List.copyOf(history), executed, returns));
        }
    }

    private String membershipChange(ClusterSnapshot now) {
        Set<String> ids = now.nodes().stream().map(Node::id).collect(Collectors.toCollection(TreeSet::new));
        String why = null;
        if (members != null && !members.equals(ids)) {
            why = "ring membership changed " + members + " -> " + ids + ": the forecast to check dropped, the "
                    + history.size() + " earlier windows kept for the cost model";
            executed = null;
            balancedLast = false;
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

    /**
     * The planner's strategy: core's {@link RingStrategy} for the ring of the round in progress.
     * The sidecar keeps one planner (its meters, its settings) while its ring changes every
     * window, and a ring strategy is made for one ring. Set and used under the round's lock.
     */
    private static final class RoundRing implements Strategy {
        private final RingPlannerConfig search;
        private RingStrategy current;

        RoundRing(RingPlannerConfig search) {
            this.search = search;
            this.current = new RingStrategy(Map.of(), Map.of(), search);
        }

        void set(RingStrategy s) {
            current = s;
        }

        @Override
        public String name() {
            return current.name();
        }

        @Override
        public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
            return current.outcome(model, context);
        }

        @Override
        public Optional<StrategyOutcome> takeBack(Plan previous, LoadModel model, Dimension dimension, String why) {
            return current.takeBack(previous, model, dimension, why);
        }

        @Override
        public LoadModel carriedOut(LoadModel model, Plan plan, BiFunction<LoadModel, Plan, LoadModel> regionActions) {
            return current.carriedOut(model, plan, regionActions);
        }
    }
}
