package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import java.time.Duration;

/** A plan together with the estimated state it was made from, the predicted state and the time it took. */
public record PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime) {
}
