package io.libra.core.schedule;

/** A condition a region move must pass, checked against the working state (see {@link ActionCondition}). */
interface MigrationCondition extends ActionCondition<Candidate> {
}
