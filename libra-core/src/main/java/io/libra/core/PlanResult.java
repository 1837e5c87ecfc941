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
 *
 * @param measuredStep whether the round planned a {@link MeasuredStep} out of a hold, at the operator's
 *                     settings though the check is conservative (adapters say so instead of "conservative")
 */
public record PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime,
                         Optional<PredictionCheck> check, boolean measuredStep) {
    /** A result planned without a forecast to check. */
    public PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime) {
        this(plan, before, predicted, planTime, Optional.empty(), false);
    }

    /** A result that took no measured step. */
    public PlanResult(Plan plan, LoadModel before, LoadModel predicted, Duration planTime, Optional<PredictionCheck> check) {
        this(plan, before, predicted, planTime, check, false);
    }

    /** Whether the check of the last forecast made this round conservative (a measured step is not). */
    public boolean conservative() {
        return !measuredStep && check.filter(PredictionCheck::conservative).isPresent();
    }
}
