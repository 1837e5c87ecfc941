package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/** Theorem 1's bound: a region above λ/2 in either dimension may not fit anywhere whole, so it is a split candidate. */
public record SplitBound(double bound) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.SPLIT_BOUND;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return above(c, Dimension.CPU) || above(c, Dimension.DISK);
    }

    private boolean above(MigrationCandidate c, Dimension d) {
        return c.shareAtSource(d) > bound;
    }

    @Override
    public String explain(MigrationCandidate c) {
        Dimension d = above(c, c.critical()) ? c.critical() : c.critical().other();
        return "split bound: " + c.movedId() + " " + d.label() + " " + Notes.compared(c.shareAtSource(d), " > λ/2=", bound);
    }
}
