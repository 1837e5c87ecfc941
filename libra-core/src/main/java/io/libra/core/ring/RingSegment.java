package io.libra.core.ring;

import java.util.List;

/**
 * The token sub-range {@code (previous segment's endToken, endToken]}, Cassandra's
 * convention, with its per-replica loads per replication group. Load is taken as spread
 * evenly over the tokens inside a segment: finer segments mean finer planning.
 */
public record RingSegment(long endToken, List<ReplicaLoad> loads) {
    public RingSegment {
        loads = List.copyOf(loads);
    }
}
