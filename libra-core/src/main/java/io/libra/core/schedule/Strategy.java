package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;

/**
 * A way of turning an estimated cluster load into a plan. Every strategy sees the same
 * estimation, so comparisons between them are fair (§V-A). Implementations are stateless
 * and deterministic for equal input.
 */
public interface Strategy {
    /** The name users choose it by: libra, 1d-cpu, 1d-io, 2d-iso, 2d-wtd. */
    String name();

    /** The plan and the state it predicts. */
    StrategyOutcome outcome(LoadModel model, PlanningContext context);

    default Plan plan(LoadModel model, PlanningContext context) {
        return outcome(model, context).plan();
    }
}
