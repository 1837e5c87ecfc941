package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.plan.NodeDeviation;

/**
 * One token move under consideration: node {@code node}'s token from its slice in {@code before}
 * to slice {@code to}, with what the move does to every node's load. The node that gains most
 * (both dimensions, normalised) is the destination, the one that sheds most the source: with a
 * replication factor r the range changes hands between the mover and its r-th successor, so it is
 * read from the loads rather than assumed. The critical dimension is the one where the most
 * loaded node (Δ, eq. 4) is highest before the move.
 */
record TokenCandidate(RingGrid grid, int[] before, int node, int to) {
    int[] after() {
        int[] a = before.clone();
        a[node] = to;
        return a;
    }

    int critical() {
        int w = 0;
        for (int j = 1; j < grid.n; j++) {
            if (grid.deviation(before, j) > grid.deviation(before, w)) {
                w = j;
            }
        }
        return w;
    }

    Dimension criticalDimension() {
        int w = critical();
        return grid.normalized(before, w, Dimension.CPU) >= grid.normalized(before, w, Dimension.DISK)
                ? Dimension.CPU : Dimension.DISK;
    }

    /** A′_j or B′_j before the move. */
    double normalisedBefore(int j, Dimension d) {
        return grid.normalized(before, j, d);
    }

    double normalisedAfter(int j, Dimension d) {
        return grid.normalized(after(), j, d);
    }

    /** The moved range's share of node j's target in d (eq. 2): what j gains (positive) or sheds (negative). */
    double share(int j, Dimension d) {
        return normalisedAfter(j, d) - normalisedBefore(j, d);
    }

    int destination() {
        return extreme(1);
    }

    int source() {
        return extreme(-1);
    }

    private int extreme(int sign) {
        int best = 0;
        for (int j = 1; j < grid.n; j++) {
            if (sign * gain(j) > sign * gain(best)) {
                best = j;
            }
        }
        return best;
    }

    private double gain(int j) {
        return share(j, Dimension.CPU) + share(j, Dimension.DISK);
    }

    double deltaBefore() {
        return grid.imbalance(before);
    }

    double deltaAfter() {
        return grid.imbalance(after());
    }

    NodeDeviation deviation(int j) {
        return new NodeDeviation(id(j), grid.deviation(before, j), grid.deviation(after(), j));
    }

    String id(int j) {
        return grid.nodes.get(j).id();
    }
}
