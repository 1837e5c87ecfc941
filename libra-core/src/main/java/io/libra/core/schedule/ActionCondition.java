package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/**
 * One condition of §III-B a candidate action must pass, checked against the state at the moment
 * of the action. Each condition explains itself with the numbers it compared, so an action's
 * reason states exactly the tests that passed. Region moves ({@link MigrationCondition}) and the
 * ring planner's token moves share this shape.
 *
 * @param <C> the candidate action
 */
public interface ActionCondition<C> {
    Constraint constraint();

    boolean holds(C candidate);

    /** The test with its numbers, true at the time {@link #holds} was. */
    String explain(C candidate);
}
