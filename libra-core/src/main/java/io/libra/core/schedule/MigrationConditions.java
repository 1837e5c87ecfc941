package io.libra.core.schedule;

import io.libra.core.model.Dimension;

/**
 * The three migration conditions of §III-B, each a small named predicate, for a region on a
 * source node in the critical dimension d (o is the other dimension).
 */
final class MigrationConditions {
    private final WorkingState state;
    private final SchedulerConfig config;

    MigrationConditions(WorkingState state, SchedulerConfig config) {
        this.state = state;
        this.config = config;
    }

    /** Load constraint: A'_dst + α'_i &lt; 1 + λ (α' against the destination's target). */
    boolean loadConstraint(int r, Dimension d, int dst) {
        return state.norm(dst, d) + state.regionNorm(r, d, dst) < 1 + config.lambda();
    }

    /** Interference constraint: β'_i &lt; α'_i, so the move weighs less on the non-critical dimension. */
    boolean interferenceConstraint(int r, Dimension d, int src) {
        return state.regionNorm(r, d.other(), src) < state.regionNorm(r, d, src);
    }

    /** Benefit threshold: α'_i &gt; 1/500, so the gain outweighs the cost of moving. */
    boolean benefitThreshold(int r, Dimension d, int src) {
        return state.regionNorm(r, d, src) > config.benefitThreshold();
    }

    /** Above λ/2 in either dimension: a split candidate by Theorem 1. */
    boolean exceedsSplitBound(int r, int src) {
        return state.regionNorm(r, Dimension.CPU, src) > config.splitBound()
                || state.regionNorm(r, Dimension.DISK, src) > config.splitBound();
    }

    /**
     * Stage 2 of lazy scheduling for a region above λ/2: the destination stays within 1 + λ in
     * both dimensions and the gap between its two dimensions does not grow.
     */
    boolean bigRegionFits(int r, int dst) {
        double a = state.norm(dst, Dimension.CPU);
        double b = state.norm(dst, Dimension.DISK);
        double a2 = a + state.regionNorm(r, Dimension.CPU, dst);
        double b2 = b + state.regionNorm(r, Dimension.DISK, dst);
        return a2 <= 1 + config.lambda() && b2 <= 1 + config.lambda() && Math.abs(a2 - b2) <= Math.abs(a - b) + 1e-12;
    }
}
