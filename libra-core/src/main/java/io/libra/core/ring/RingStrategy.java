package io.libra.core.ring;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The ring planner as a core {@link Strategy}, so a Cassandra window goes through the same
 * {@code Planner} path as a region plan (estimate, forecast check, fluctuation guard, search,
 * finish). A load model knows regions and nodes but not tokens, so the strategy is made for one
 * ring ({@link #of}): it plans the model's per-replica loads on that ring's tokens. λ and the
 * benefit threshold are the planner's (a conservative round raises both), the rest of the search
 * is the ring's own configuration.
 */
public final class RingStrategy implements Strategy {
    private final Function<LoadModel, RingLoad> ring;
    private final RingPlannerConfig search;
    private final HalfReturns returns;

    private RingStrategy(Function<LoadModel, RingLoad> ring, RingPlannerConfig search, HalfReturns returns) {
        this.ring = ring;
        this.search = search;
        this.returns = returns;
    }

    public RingStrategy(Map<String, Long> tokens, Map<String, Integer> rfOfTable, RingPlannerConfig search) {
        this(model -> SnapshotRing.of(Map.copyOf(tokens), model, Map.copyOf(rfOfTable)), search, HalfReturns.NONE);
    }

    /** The strategy for the ring a snapshot describes, replication factors read from its replicas. */
    public static RingStrategy of(ClusterSnapshot snapshot, RingPlannerConfig search) {
        return new RingStrategy(SnapshotRing.tokens(snapshot), SnapshotReplication.factors(snapshot), search);
    }

    /**
     * The strategy for a single-token ring with each table ({@code keyspace.table}) placed by its
     * keyspace's replication in {@code topology} (racks, data centres), as
     * {@link SnapshotRing#of(ClusterSnapshot, LoadModel, RingTopology)} places it.
     */
    public RingStrategy(Map<String, Long> tokens, RingTopology topology, RingPlannerConfig search) {
        this(tokens, topology, search, HalfReturns.NONE);
    }

    /**
     * As {@link #RingStrategy(Map, RingTopology, RingPlannerConfig)}, where a node's token goes at
     * most halfway back toward a token it left in the last rounds ({@code returns}).
     */
    public RingStrategy(Map<String, Long> tokens, RingTopology topology, RingPlannerConfig search, HalfReturns returns) {
        this(model -> SnapshotRing.of(Map.copyOf(tokens), model, topology), search, returns);
    }

    /** The strategy for a snapshot's ring with each keyspace placed by its replication in {@code topology}. */
    public static RingStrategy of(ClusterSnapshot snapshot, RingTopology topology, RingPlannerConfig search) {
        return new RingStrategy(SnapshotRing.tokens(snapshot), topology, search);
    }

    @Override
    public String name() {
        return RingPlan.STRATEGY_PREFIX.substring(0, RingPlan.STRATEGY_PREFIX.length() - 1);
    }

    @Override
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        int cap = context.config().maxActions();
        int moves = cap > 0 ? Math.min(cap, search.maxMoves()) : search.maxMoves();
        RingPlannerConfig config = new RingPlannerConfig(context.config().lambda(), moves,
                search.maxMoveBytes(), search.slicesPerSegment(), context.config().benefitThreshold());
        RingLoad ring = this.ring.apply(model);
        Plan plan = new RingPlanner(config, returns).plan(ring).toPlan();
        return new StrategyOutcome(plan, SnapshotRing.perNode(model.nodes(), RingApplier.apply(ring, plan.actions())
                .loadsAfter()));
    }

    /** The plan's token moves carried out on this ring as {@code model} loads it. */
    @Override
    public LoadModel carriedOut(LoadModel model, Plan plan, BiFunction<LoadModel, Plan, LoadModel> regionActions) {
        return SnapshotRing.perNode(model.nodes(), RingApplier.apply(ring.apply(model), plan.actions()).loadsAfter());
    }

    /** The last plan's token moves taken back on this ring ({@link RingTakeBack}). */
    @Override
    public Optional<StrategyOutcome> takeBack(Plan previous, LoadModel model, Dimension dimension, String why) {
        return RingTakeBack.of(previous, model, ring.apply(model), dimension, why);
    }
}
