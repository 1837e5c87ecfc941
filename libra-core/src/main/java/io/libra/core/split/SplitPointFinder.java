package io.libra.core.split;

import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Keys;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Finds the key that puts a share τ of a region's load on its left (§IV-B).
 *
 * <p>From sampled requests, the bound-constrained heuristic: accumulating requests by start
 * key gives a lower bound (left load at most τ), accumulating by end key from the top gives
 * an upper bound (left load at least τ); the split is their midpoint. From a key histogram,
 * the cumulative load curve is inverted, treating load as uniform inside a bucket.
 */
public final class SplitPointFinder {
    private SplitPointFinder() {
    }

    public static Optional<String> fromRequests(KeyRange range, List<SampledRequest> requests, double tau) {
        double total = requests.stream().mapToDouble(SampledRequest::load).sum();
        if (total <= 0) {
            return Optional.empty();
        }
        List<SampledRequest> byStart = new ArrayList<>(requests);
        byStart.sort(Comparator.comparing(SampledRequest::startKey));
        String lower = lowerBound(byStart, tau * total);
        List<SampledRequest> byEnd = new ArrayList<>(requests);
        byEnd.sort(Comparator.comparing(SampledRequest::endKey).reversed());
        String upper = upperBound(byEnd, (1 - tau) * total);
        if (lower == null || upper == null) {
            return Optional.empty();
        }
        String lo = lower.compareTo(upper) <= 0 ? lower : upper;
        String hi = lower.compareTo(upper) <= 0 ? upper : lower;
        String mid = lo.equals(hi) ? lo : midpoint(lo, hi);
        return range.strictlyContains(mid) ? Optional.of(mid) : Optional.empty();
    }

    /** Start key of the first request past a cumulative load of {@code leftLoad}. */
    private static String lowerBound(List<SampledRequest> byStart, double leftLoad) {
        double acc = 0;
        for (SampledRequest r : byStart) {
            if (acc + r.load() > leftLoad) {
                return r.startKey();
            }
            acc += r.load();
        }
        return null;
    }

    /** End key of the request at which the load accumulated from the top reaches {@code rightLoad}. */
    private static String upperBound(List<SampledRequest> byEndDesc, double rightLoad) {
        double acc = 0;
        for (SampledRequest r : byEndDesc) {
            acc += r.load();
            if (acc >= rightLoad) {
                return r.endKey();
            }
        }
        return null;
    }

    private static String midpoint(String lo, String hi) {
        return Keys.interpolate(new KeyRange(lo, hi), 0.5);
    }

    /**
     * The key at which the cumulative {@code weight} of the histogram reaches τ of its total;
     * without a histogram (or with no load in it) the key space is assumed uniform.
     */
    public static String fromHistogram(KeyRange range, List<KeyBucket> histogram,
                                       ToDoubleFunction<RegionCounters> weight, double tau) {
        double total = histogram.stream().mapToDouble(b -> weight.applyAsDouble(b.counters())).sum();
        if (histogram.isEmpty() || total <= 0) {
            return Keys.interpolate(range, tau);
        }
        double acc = 0;
        String start = range.startKey();
        for (KeyBucket b : histogram) {
            double w = weight.applyAsDouble(b.counters());
            if (acc + w >= tau * total && w > 0) {
                double within = (tau * total - acc) / w;
                if (within >= 1 - 1e-9 && range.strictlyContains(b.endKey())) {
                    return b.endKey();
                }
                String key = Keys.interpolate(new KeyRange(start, b.endKey()), within);
                return range.strictlyContains(key) ? key : Keys.interpolate(range, tau);
            }
            acc += w;
            start = b.endKey();
        }
        return Keys.interpolate(range, tau);
    }
}
