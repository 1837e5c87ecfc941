package io.libra.core.apply;

import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.List;

/** Joins adjacent regions of one node into one: ranges, counters, histograms and loads add up. */
final class RegionMerger {
    private RegionMerger() {
    }

    static RegionLoad merge(List<RegionLoad> parts, String id) {
        Region first = parts.get(0).region();
        Region last = parts.get(parts.size() - 1).region();
        RegionCounters counters = RegionCounters.ZERO;
        List<KeyBucket> histogram = new ArrayList<>();
        double size = 0;
        double cpu = 0;
        double disk = 0;
        for (RegionLoad p : parts) {
            Region r = p.region();
            counters = counters.plus(r.counters());
            histogram.addAll(r.histogram().isEmpty() ? List.of(new KeyBucket(r.range().endKey(), r.counters())) : r.histogram());
            size += r.sizeBytes();
            cpu += p.cpu();
            disk += p.disk();
        }
        Region merged = new Region(id, first.table(), new KeyRange(first.range().startKey(), last.range().endKey()),
                first.node(), size, counters, histogram, first.rangeId());
        return new RegionLoad(merged, cpu, disk);
    }
}
