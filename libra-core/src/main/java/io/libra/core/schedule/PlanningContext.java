package io.libra.core.schedule;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.plan.OwnLoad;
import java.util.List;

/**
 * What a strategy may use besides the load model: the scheduling parameters, the estimation
 * (to share a split region's load between its halves) and the store's placement rule.
 * Strategies draw no random numbers: ties break on node and region index, so equal input gives
 * an equal plan.
 *
 * @param ownLoad the nodes the estimate found load of their own on, which no region carries
 */
public record PlanningContext(SchedulerConfig config, EstimationConfig estimation, PlacementRule placement,
                              List<OwnLoad> ownLoad) {
    public PlanningContext {
        ownLoad = List.copyOf(ownLoad);
    }

    public PlanningContext(SchedulerConfig config, EstimationConfig estimation, PlacementRule placement) {
        this(config, estimation, placement, List.of());
    }

    public PlanningContext(SchedulerConfig config, EstimationConfig estimation) {
        this(config, estimation, PlacementRule.ANY);
    }

    /**
     * The same context for another plan of the window, on a model that finds load of their own on the
     * nodes {@code own} names (a rival's), with the placement rule {@link PlacementRule#fresh fresh}.
     */
    public PlanningContext withOwnLoad(List<OwnLoad> own) {
        return new PlanningContext(config, estimation, placement.fresh(), own);
    }
}
