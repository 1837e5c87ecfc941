package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Plan;
import java.util.Optional;
import java.util.function.BiFunction;

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

    /**
     * Takes back {@code previous}'s actions of a kind only this strategy can undo (a ring's token
     * moves: what moving one back does takes the ring), with {@code why} in each reason; core takes
     * region moves back itself. Empty when there is nothing of that kind to take back.
     */
    default Optional<StrategyOutcome> takeBack(Plan previous, LoadModel model, Dimension dimension, String why) {
        return Optional.empty();
    }

    /**
     * What {@code plan}, made by this strategy, leaves of {@code model} (another model of the same
     * window, as a rival model weighs it): by {@code regionActions}, which carries out moves and
     * splits of regions, unless the strategy plans actions of its own kind (a ring's token moves).
     */
    default LoadModel carriedOut(LoadModel model, Plan plan, BiFunction<LoadModel, Plan, LoadModel> regionActions) {
        return regionActions.apply(model, plan);
    }

    default Plan plan(LoadModel model, PlanningContext context) {
        return outcome(model, context).plan();
    }
}
