package io.libra.cassandra.collect;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.SnapshotRing;
import java.util.List;
import java.util.Map;

/**
 * A window turned into planner input: the snapshot (one region per table, sub-range and
 * replica, per formats.md), core's load estimate of it, and the ring with per-replica loads.
 */
public record RingModel(ClusterSnapshot snapshot, LoadModel load, RingLoad ring, List<SubRange> subRanges,
                        Map<String, Integer> rfOfTable) {
    public RingModel {
        rfOfTable = Map.copyOf(rfOfTable);
    }

    /** The same ring with per-replica loads from another estimate of this window (a learnt one). */
    public RingLoad ringOn(LoadModel estimate) {
        return SnapshotRing.of(snapshot, estimate, rfOfTable);
    }

    /** A token sub-range {@code (start, end]}: a piece of one node's primary arc. */
    public record SubRange(String id, long start, long end, String primary) {
    }
}
