package io.libra.core.split;

import io.libra.core.estimate.RegionCosts;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Keys;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a region at a key and shares its counters, size and estimated load between the halves.
 * With a histogram the halves get the buckets on their side (a key inside a bucket shares that
 * bucket by key-space position); without one, load is assumed uniform over the key space.
 */
public final class RegionSplitter {
    private final RegionCosts costs;

    /** @param costs what shares the region's estimated load between the halves ({@link RegionCosts}) */
    public RegionSplitter(RegionCosts costs) {
        this.costs = costs;
    }

    public record Halves(RegionLoad left, RegionLoad right) {
    }

    public static String leftId(String id) {
        return id + ".l";
    }

    public static String rightId(String id) {
        return id + ".r";
    }

    public Halves split(RegionLoad load, String splitKey) {
        Region r = load.region();
        if (!r.range().strictlyContains(splitKey)) {
            throw new IllegalArgumentException("split key " + splitKey + " is outside region " + r.id());
        }
        List<KeyBucket> leftBuckets = new ArrayList<>();
        List<KeyBucket> rightBuckets = new ArrayList<>();
        RegionCounters leftCounters = shareCounters(r, splitKey, leftBuckets, rightBuckets);
        RegionCounters rightCounters = minus(r.counters(), leftCounters);
        double keyShare = Keys.position(r.range(), splitKey);
        double opsShare = r.counters().ops() > 0 ? leftCounters.ops() / r.counters().ops() : keyShare;
        double cpuShare = fraction(costs.cpu().applyAsDouble(leftCounters), costs.cpu().applyAsDouble(r.counters()), opsShare);
        double diskShare = fraction(costs.disk().applyAsDouble(leftCounters), costs.disk().applyAsDouble(r.counters()), opsShare);
        double sizeShare = r.histogram().isEmpty() ? keyShare : (opsShare + keyShare) / 2;
        Region left = new Region(leftId(r.id()), r.table(), r.range().left(splitKey), r.node(),
                r.sizeBytes() * sizeShare, leftCounters, leftBuckets, r.rangeId());
        Region right = new Region(rightId(r.id()), r.table(), r.range().right(splitKey), r.node(),
                r.sizeBytes() - left.sizeBytes(), rightCounters, rightBuckets, r.rangeId());
        return new Halves(new RegionLoad(left, load.cpu() * cpuShare, load.disk() * diskShare),
                new RegionLoad(right, load.cpu() * (1 - cpuShare), load.disk() * (1 - diskShare)));
    }

    private static double fraction(double part, double whole, double fallback) {
        return whole > 0 ? Math.min(1, Math.max(0, part / whole)) : fallback;
    }

    private static RegionCounters shareCounters(Region r, String splitKey, List<KeyBucket> left, List<KeyBucket> right) {
        double keyShare = Keys.position(r.range(), splitKey);
        if (r.histogram().isEmpty()) {
            return r.counters().scaled(keyShare);
        }
        RegionCounters leftSum = RegionCounters.ZERO;
        RegionCounters total = RegionCounters.ZERO;
        String bucketStart = r.range().startKey();
        for (KeyBucket b : r.histogram()) {
            total = total.plus(b.counters());
            boolean endsBeforeKey = !b.endKey().isEmpty() && b.endKey().compareTo(splitKey) <= 0;
            if (endsBeforeKey) {
                left.add(b);
                leftSum = leftSum.plus(b.counters());
            } else if (bucketStart.compareTo(splitKey) >= 0) {
                right.add(b);
            } else {
                double f = Keys.position(new KeyRange(bucketStart, b.endKey()), splitKey);
                left.add(new KeyBucket(splitKey, b.counters().scaled(f)));
                right.add(new KeyBucket(b.endKey(), b.counters().scaled(1 - f)));
                leftSum = leftSum.plus(b.counters().scaled(f));
            }
            bucketStart = b.endKey();
        }
        return scaleToRegion(leftSum, total, r.counters(), keyShare);
    }

    /** Histograms are samples: their shares, not their absolute values, apply to the region's counters. */
    private static RegionCounters scaleToRegion(RegionCounters part, RegionCounters sample, RegionCounters whole, double fallback) {
        return new RegionCounters(
                whole.readOps() * fraction(part.readOps(), sample.readOps(), fallback),
                whole.writeOps() * fraction(part.writeOps(), sample.writeOps(), fallback),
                whole.readBytes() * fraction(part.readBytes(), sample.readBytes(), fallback),
                whole.writeBytes() * fraction(part.writeBytes(), sample.writeBytes(), fallback));
    }

    private static RegionCounters minus(RegionCounters a, RegionCounters b) {
        return new RegionCounters(Math.max(0, a.readOps() - b.readOps()), Math.max(0, a.writeOps() - b.writeOps()),
                Math.max(0, a.readBytes() - b.readBytes()), Math.max(0, a.writeBytes() - b.writeBytes()));
    }
}
