package io.libra.core.schedule;

import io.libra.core.model.Dimension;

/**
 * A move under consideration: region r from its source to a destination, to relieve the
 * source in the critical dimension (Libra) or on a score (baselines).
 */
record Candidate(int region, int source, int destination, Dimension critical, Score score) {
    static Candidate of(int region, int source, int destination, Dimension critical) {
        return new Candidate(region, source, destination, critical, Score.of(critical));
    }
}
