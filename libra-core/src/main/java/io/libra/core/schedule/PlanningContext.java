package io.libra.core.schedule;

import io.libra.core.estimate.EstimationConfig;
import java.util.random.RandomGenerator;

/**
 * What a strategy may use besides the load model: the scheduling parameters, the estimation
 * (to share a split region's load between its halves) and a seeded random source for ties.
 */
public record PlanningContext(SchedulerConfig config, EstimationConfig estimation, RandomGenerator random) {
}
