package io.libra.core.model;

import java.util.List;

/**
 * A contiguous key range served by one node (HBase region, or one replica of a Cassandra
 * token sub-range).
 *
 * @param sizeBytes data held, the cost of moving it
 * @param histogram sampled sub-ranges in key order (may be empty)
 * @param rangeId   Cassandra: the shared token sub-range this replica entry belongs to; else null
 * @param measured  load measured for this region by the adapter (formats.md {@code measuredCpu},
 *                  {@code measuredDiskBytesPerSec}); {@link MeasuredLoad#NONE} when not measured
 */
public record Region(String id, String table, KeyRange range, String node, double sizeBytes,
                     RegionCounters counters, List<KeyBucket> histogram, String rangeId, MeasuredLoad measured) {
    public Region {
        Checks.id("region.id", id);
        Checks.id("region.node", node);
        Checks.nonNegative("sizeBytes", sizeBytes);
        if (table == null || range == null || counters == null) {
            throw new IllegalArgumentException("region " + id + ": table, range and counters are required");
        }
        histogram = histogram == null ? List.of() : List.copyOf(histogram);
        measured = measured == null ? MeasuredLoad.NONE : measured;
    }

    public Region(String id, String table, KeyRange range, String node, double sizeBytes,
                  RegionCounters counters, List<KeyBucket> histogram, String rangeId) {
        this(id, table, range, node, sizeBytes, counters, histogram, rangeId, MeasuredLoad.NONE);
    }

    public Region(String id, String table, KeyRange range, String node, double sizeBytes, RegionCounters counters) {
        this(id, table, range, node, sizeBytes, counters, List.of(), null);
    }

    public Region onNode(String newNode) {
        return new Region(id, table, range, newNode, sizeBytes, counters, histogram, rangeId, measured);
    }

    /**
     * Whether {@code other} covers some of this region's keys in the same table: a region of another
     * window that this one was split from or merged into.
     */
    public boolean sharesKeysWith(Region other) {
        return table.equals(other.table) && (rangeId == null) == (other.rangeId == null) && range.overlaps(other.range);
    }
}
