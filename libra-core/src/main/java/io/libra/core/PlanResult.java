package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.plan.Plan;
import java.time.Duration;
import java.util.Optional;

/**
 * A plan together with the estimated state it was made from, the predicted state, the time it
 * took, and the check of the previous plan's forecast against this window (when there was one),
 * so an adapter reports the check the planner acted on instead of computing it again.
 */
public record PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime,
                         Optional<PredictionCheck> check) {
    /** A result planned without a forecast to check. */
    public PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime) {
        this(plan, before, predicted, planTime, Optional.empty());
    }
}
