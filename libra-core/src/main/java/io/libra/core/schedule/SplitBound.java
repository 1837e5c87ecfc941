package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/** Theorem 1's bound: a region above λ/2 in either dimension may not fit anywhere whole, so it is a split candidate. */
record SplitBound(WorkingState state, SchedulerConfig config) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.SPLIT_BOUND;
    }

    @Override
    public boolean holds(Candidate c) {
        return above(c, Dimension.CPU) || above(c, Dimension.DISK);
    }

    private boolean above(Candidate c, Dimension d) {
        return state.share(c.region(), d, c.source()) > config.splitBound();
    }

    @Override
    public String explain(Candidate c) {
        Dimension d = above(c, c.critical()) ? c.critical() : c.critical().other();
        return "split bound: " + state.region(c.region()).id() + " " + d.label() + " "
                + Notes.num(state.share(c.region(), d, c.source())) + " > λ/2=" + Notes.num(config.splitBound());
    }
}
