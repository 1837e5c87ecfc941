package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * In place of the load constraint, for a region that cannot be split: the destination, after
 * taking it, stays below the source's current deviation in both dimensions, so moving it
 * whole still lowers the peak.
 */
record BelowSource(WorkingState state) implements MigrationCondition {
    private static final double EPS = 1e-9;

    @Override
    public Constraint constraint() {
        return Constraint.BELOW_SOURCE;
    }

    @Override
    public boolean holds(Candidate c) {
        double limit = limit(c);
        return after(c, Dimension.CPU) < limit && after(c, Dimension.DISK) < limit;
    }

    private double limit(Candidate c) {
        return state.deviation(c.source()) + 1 - EPS;
    }

    private double after(Candidate c, Dimension d) {
        return state.normalised(c.destination(), d) + state.share(c.region(), d, c.destination());
    }

    @Override
    public String explain(Candidate c) {
        return "below source: " + state.nodeId(c.destination()) + " cpu " + Notes.num(after(c, Dimension.CPU))
                + " and disk " + Notes.num(after(c, Dimension.DISK)) + " after the move < "
                + state.nodeId(c.source()) + "'s " + Notes.num(limit(c) + EPS) + "; the region cannot be split, so it moves whole";
    }
}
