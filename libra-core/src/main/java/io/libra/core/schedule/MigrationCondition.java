package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/**
 * One condition of §III-B a candidate move must pass, checked against the working state at the
 * moment of the move. Each condition explains itself with the numbers it compared, so an
 * action's reason states exactly the tests that passed.
 */
interface MigrationCondition {
    Constraint constraint();

    boolean holds(Candidate c);

    /** The test with its numbers, true at the time {@link #holds} was. */
    String explain(Candidate c);
}
