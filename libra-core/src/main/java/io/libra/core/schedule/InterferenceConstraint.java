package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * Interference constraint: β′_i &lt; α′_i, so the move weighs less on the non-critical
 * dimension. Normalised against each node's targets; on heterogeneous nodes it must hold where
 * the region leaves and where it lands.
 */
record InterferenceConstraint(WorkingState state) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.INTERFERENCE_CONSTRAINT;
    }

    @Override
    public boolean holds(Candidate c) {
        return holdsOn(c, c.source()) && (c.destination() < 0 || holdsOn(c, c.destination()));
    }

    /** On one node alone: the test a source applies before any destination is known. */
    boolean holdsOn(Candidate c, int j) {
        Dimension d = c.critical();
        return state.share(c.region(), d.other(), j) < state.share(c.region(), d, j);
    }

    @Override
    public String explain(Candidate c) {
        Dimension d = c.critical();
        return "interference constraint: " + state.region(c.region()).id() + " " + d.other().label() + " "
                + Notes.num(state.share(c.region(), d.other(), c.source())) + " < " + d.label() + " "
                + Notes.num(state.share(c.region(), d, c.source()));
    }
}
