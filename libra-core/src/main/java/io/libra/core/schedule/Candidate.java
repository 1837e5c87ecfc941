package io.libra.core.schedule;

import io.libra.core.model.Dimension;

/**
 * A region move under consideration: region r from its source to a destination (-1 while none is
 * chosen), to relieve the source in the critical dimension (Libra) or on a score (baselines),
 * read against the working state as it is now.
 */
record Candidate(WorkingState state, int region, int source, int destination, Dimension critical, Score score)
        implements MigrationCandidate {
    static Candidate of(WorkingState state, int region, int source, int destination, Dimension critical) {
        return new Candidate(state, region, source, destination, critical, Score.of(critical));
    }

    @Override
    public String movedId() {
        return state.region(region).id();
    }

    @Override
    public String sourceId() {
        return state.nodeId(source);
    }

    @Override
    public String destinationId() {
        return state.nodeId(destination);
    }

    @Override
    public boolean hasDestination() {
        return destination >= 0;
    }

    @Override
    public double sourceLoad(Dimension d) {
        return state.normalised(source, d);
    }

    @Override
    public double destinationLoad(Dimension d) {
        return state.normalised(destination, d);
    }

    @Override
    public double shareAtSource(Dimension d) {
        return state.share(region, d, source);
    }

    @Override
    public double shareAtDestination(Dimension d) {
        return state.share(region, d, destination);
    }

    @Override
    public double sourceDeviation() {
        return state.deviation(source);
    }
}
