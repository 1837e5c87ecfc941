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

    /**
     * Interference constraint: β'_i &lt; α'_i, so the move weighs less on the non-critical
     * dimension. Normalised against node j's targets; on heterogeneous nodes it must hold where
     * the region lands as well as where it leaves.
     */
    boolean interferenceConstraint(int r, Dimension d, int j) {
        return state.regionNorm(r, d.other(), j) < state.regionNorm(r, d, j);
    }

    /**
     * Where the interference constraint fails, moving the region still does no harm when the
     * source is above the mean in the other dimension too (it wants to shed both) and the
     * destination stays within 1 + λ there. Without this, a cluster whose CPU and disk line up
     * (every region with α' = β') could never be balanced.
     */
    boolean sharedRelief(int r, Dimension d, int src, int dst) {
        Dimension o = d.other();
        return state.norm(src, o) > 1.0 && state.norm(dst, o) + state.regionNorm(r, o, dst) < 1 + config.lambda();
    }

    /**
     * For a region that cannot be split: the destination, after taking it, stays below the
     * source's current deviation in both dimensions, so moving it whole still lowers the peak.
     */
    boolean belowSource(int r, int src, int dst) {
        double limit = state.deviation(src) + 1 - 1e-9;
        return state.norm(dst, Dimension.CPU) + state.regionNorm(r, Dimension.CPU, dst) < limit
                && state.norm(dst, Dimension.DISK) + state.regionNorm(r, Dimension.DISK, dst) < limit;
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
}
