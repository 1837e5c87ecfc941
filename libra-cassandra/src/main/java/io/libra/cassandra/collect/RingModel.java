package io.libra.cassandra.collect;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.RingTopology;
import java.util.List;

/**
 * A window turned into planner input: the snapshot (one region per table, sub-range and
 * replica, per formats.md), core's load estimate of it, the ring with per-replica loads, and the
 * topology (nodes' places, keyspaces' replication) that places them.
 */
public record RingModel(ClusterSnapshot snapshot, LoadModel load, RingLoad ring, List<SubRange> subRanges,
                        RingTopology topology) {

    /** A token sub-range {@code (start, end]}: a piece of one node's primary arc. */
    public record SubRange(String id, long start, long end, String primary) {
    }
}
