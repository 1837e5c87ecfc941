package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Constraint;

/**
 * In place of the load and interference constraints, where no region of a hot node met them or
 * split: the move lowers the higher peak of the two nodes (each node's larger normalised load, CPU
 * or disk) by more than the benefit threshold. Δ cannot rise, as both nodes end below the peak the
 * pair had. The paper's conditions cap the destination at 1 + λ in the critical dimension and weigh
 * the region's two loads against each other; once every cool node is near 1 + λ in one dimension
 * or the other (nodes of unequal speed, a CPU peak beside a disk peak), no region passes them
 * while a move that lands the destination between the two peaks still lowers Δ (`libra loop
 * --truth disk-speed`, cache-skew seed 2: stuck at a forecast 1.154/1.146, nothing worth moving).
 */
public record PairPeak(double threshold, double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.PAIR_PEAK;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return gain(c) > threshold && lands(c);
    }

    /** Whether the destination's peak ends within its {@link #room}, the half of {@link #holds} besides the gain. */
    boolean lands(MigrationCandidate c) {
        return destinationAfter(c) < room(c);
    }

    /** The pair's peak now less its peak once the region has moved. */
    static double gain(MigrationCandidate c) {
        return before(c) - Math.max(sourceAfter(c), destinationAfter(c));
    }

    /**
     * Where the destination's peak may end: within 1 + λ, or λ below the source's peak, so that an
     * estimate off by less than λ there cannot make it the new peak (as a {@link PeakTrade}).
     */
    private double room(MigrationCandidate c) {
        return Math.max(1 + lambda, sourceBefore(c) - lambda);
    }

    private static double before(MigrationCandidate c) {
        return Math.max(sourceBefore(c), Normalisation.peak(c.destinationLoad(Dimension.CPU), c.destinationLoad(Dimension.DISK)));
    }

    private static double sourceBefore(MigrationCandidate c) {
        return Normalisation.peak(c.sourceLoad(Dimension.CPU), c.sourceLoad(Dimension.DISK));
    }

    private static double sourceAfter(MigrationCandidate c) {
        return Normalisation.peak(c.sourceLoad(Dimension.CPU) - c.shareAtSource(Dimension.CPU),
                c.sourceLoad(Dimension.DISK) - c.shareAtSource(Dimension.DISK));
    }

    private static double destinationAfter(MigrationCandidate c) {
        return Normalisation.peak(c.destinationLoad(Dimension.CPU) + c.shareAtDestination(Dimension.CPU),
                c.destinationLoad(Dimension.DISK) + c.shareAtDestination(Dimension.DISK));
    }

    /** "pair peak: n0 1.08 and n1 1.06 after, peak 1.08 < 1.15 before, by more than 0.002; n1 1.06 < 1.10 = max(1+λ, n0 1.15 − λ)". */
    @Override
    public String explain(MigrationCandidate c) {
        double after = Math.max(sourceAfter(c), destinationAfter(c));
        return "pair peak: " + c.sourceId() + " " + Notes.num(sourceAfter(c)) + " and " + c.destinationId() + " "
                + Notes.num(destinationAfter(c)) + " after, peak " + Notes.compared(after, " < ", before(c))
                + " before, by more than " + Notes.num(threshold) + "; " + c.destinationId() + " "
                + Notes.compared(destinationAfter(c), " < ", room(c)) + " = max(1+λ, " + c.sourceId() + " "
                + Notes.num(sourceBefore(c)) + " − λ)";
    }
}
