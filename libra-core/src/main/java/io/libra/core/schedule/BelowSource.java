package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * In place of the load constraint, for a region that cannot be split: the destination, after
 * taking it, stays below the source's current deviation in both dimensions, so moving it
 * whole still lowers the peak.
 */
public record BelowSource() implements MigrationCondition {
    private static final double EPS = 1e-9;

    @Override
    public Constraint constraint() {
        return Constraint.BELOW_SOURCE;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        double limit = limit(c) - EPS;
        return after(c, Dimension.CPU) < limit && after(c, Dimension.DISK) < limit;
    }

    /** 1 + δ_src: the source's peak normalised load. */
    private static double limit(MigrationCandidate c) {
        return c.sourceDeviation() + 1;
    }

    private static double after(MigrationCandidate c, Dimension d) {
        return c.destinationLoad(d) + c.shareAtDestination(d);
    }

    @Override
    public String explain(MigrationCandidate c) {
        double limit = limit(c);
        double cpu = after(c, Dimension.CPU);
        double disk = after(c, Dimension.DISK);
        int places = Math.max(Notes.decimals(cpu, limit), Notes.decimals(disk, limit));
        return "below source: " + c.destinationId() + " cpu " + Notes.fixed(cpu, places) + " and disk "
                + Notes.fixed(disk, places) + " after the move < " + c.sourceId() + "'s " + Notes.fixed(limit, places)
                + "; the region cannot be split, so it moves whole";
    }
}
