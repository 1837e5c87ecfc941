package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.schedule.MigrationCandidate;
import io.libra.core.schedule.Score;

/**
 * One token move under consideration: node {@code node}'s token from its slice in {@code before}
 * to slice {@code to}, with what the move does to every node's load. The node that gains most
 * (both dimensions, normalised) is the destination, the one that sheds most the source: with a
 * replication factor r the range changes hands between the mover and its r-th successor, so it is
 * read from the loads rather than assumed. The critical dimension is the one where the most
 * loaded node (Δ, eq. 4) is highest before the move. The region scheduler's migration conditions
 * read it as they read a region move, with the moved range in place of the region.
 */
final class TokenCandidate implements MigrationCandidate {
    private final RingGrid grid;
    private final int[] before;
    private final int[] after;
    private final int criticalNode;
    private final Dimension critical;
    private final int source;
    private final int destination;

    TokenCandidate(RingGrid grid, int[] before, int node, int to) {
        this.grid = grid;
        this.before = before.clone();
        this.after = before.clone();
        this.after[node] = to;
        this.criticalNode = mostLoaded();
        this.critical = grid.normalized(before, criticalNode, Dimension.CPU)
                >= grid.normalized(before, criticalNode, Dimension.DISK) ? Dimension.CPU : Dimension.DISK;
        this.destination = extreme(1);
        this.source = extreme(-1);
    }

    private int mostLoaded() {
        int w = 0;
        for (int j = 1; j < grid.n; j++) {
            if (grid.deviation(before, j) > grid.deviation(before, w)) {
                w = j;
            }
        }
        return w;
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
        return change(j, Dimension.CPU) + change(j, Dimension.DISK);
    }

    /** What node j gains (positive) or sheds (negative) in d, as a share of its target (eq. 2). */
    private double change(int j, Dimension d) {
        return grid.normalized(after, j, d) - grid.normalized(before, j, d);
    }

    /** The node whose deviation is Δ before the move. */
    int criticalNode() {
        return criticalNode;
    }

    int source() {
        return source;
    }

    int destination() {
        return destination;
    }

    /** A′_j or B′_j before the move. */
    double normalisedBefore(int j, Dimension d) {
        return grid.normalized(before, j, d);
    }

    double deltaBefore() {
        return grid.imbalance(before);
    }

    double deltaAfter() {
        return grid.imbalance(after);
    }

    NodeDeviation deviation(int j) {
        return new NodeDeviation(id(j), grid.deviation(before, j), grid.deviation(after, j));
    }

    String id(int j) {
        return grid.nodes.get(j).id();
    }

    @Override
    public Dimension critical() {
        return critical;
    }

    @Override
    public Score score() {
        return Score.of(critical);
    }

    @Override
    public String movedId() {
        return "the range";
    }

    @Override
    public String sourceId() {
        return id(source);
    }

    @Override
    public String destinationId() {
        return id(destination);
    }

    @Override
    public boolean hasDestination() {
        return true;
    }

    @Override
    public double sourceLoad(Dimension d) {
        return normalisedBefore(source, d);
    }

    @Override
    public double destinationLoad(Dimension d) {
        return normalisedBefore(destination, d);
    }

    @Override
    public double shareAtSource(Dimension d) {
        return -change(source, d);
    }

    @Override
    public double shareAtDestination(Dimension d) {
        return change(destination, d);
    }

    @Override
    public double sourceDeviation() {
        return grid.deviation(before, source);
    }
}
