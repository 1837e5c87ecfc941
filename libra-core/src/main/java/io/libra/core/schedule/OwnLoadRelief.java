package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/**
 * In place of the interference constraint, on a source the estimate found load of its own on in
 * the critical dimension (a slower node, work no region counter explains): that load makes the
 * node hot, yet no region carries it, so every region there weighs about as much in the other
 * dimension and fails β′ &lt; α′. Only moving regions off relieves it; the destination must stay
 * within 1 + λ in the other dimension, so the move does not make a hot node there.
 */
public record OwnLoadRelief(double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.OWN_LOAD_RELIEF;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return SharedRelief.destinationAfter(c) < 1 + lambda;
    }

    @Override
    public String explain(MigrationCandidate c) {
        return "own-load relief: " + c.sourceId() + " carries " + c.critical().label() + " load of its own and "
                + SharedRelief.roomNote(c, lambda);
    }
}
