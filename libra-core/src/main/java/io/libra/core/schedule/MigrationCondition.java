package io.libra.core.schedule;

/** A condition a migration must pass, region move or token move (see {@link ActionCondition}). */
public interface MigrationCondition extends ActionCondition<MigrationCandidate> {
}
