package io.libra.core.model;

/** One sampled sub-range of a region's key histogram, closing at {@code endKey}. */
public record KeyBucket(String endKey, RegionCounters counters) {
    public KeyBucket {
        if (endKey == null) {
            throw new IllegalArgumentException("keyHistogram.endKey: must not be null");
        }
        if (counters == null) {
            throw new IllegalArgumentException("keyHistogram: counters must not be null");
        }
    }
}
