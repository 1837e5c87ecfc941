package io.libra.core.schedule;

import io.libra.core.estimate.EstimationConfig;

/**
 * What a strategy may use besides the load model: the scheduling parameters, the estimation
 * (to share a split region's load between its halves) and the store's placement rule.
 * Strategies draw no random numbers: ties break on node and region index, so equal input gives
 * an equal plan.
 */
public record PlanningContext(SchedulerConfig config, EstimationConfig estimation, PlacementRule placement) {
    public PlanningContext(SchedulerConfig config, EstimationConfig estimation) {
        this(config, estimation, PlacementRule.ANY);
    }
}
