package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;

/** A plan with the load model it predicts, so no one applies the plan a second time to learn it. */
public record StrategyOutcome(Plan plan, LoadModel predicted) {
}
