package io.libra.cassandra.collect;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.ring.RingLoad;
import java.util.List;

/**
 * A window turned into planner input: the snapshot (one region per table, sub-range and
 * replica, per formats.md), core's load estimate of it, and the ring with per-replica loads.
 */
public record RingModel(ClusterSnapshot snapshot, LoadModel load, RingLoad ring, List<SubRange> subRanges) {
    /** A token sub-range {@code (start, end]}: a piece of one node's primary arc. */
    public record SubRange(String id, long start, long end, String primary) {
    }
}
