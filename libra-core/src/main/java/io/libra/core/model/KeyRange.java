package io.libra.core.model;

/**
 * A key range {@code [startKey, endKey)} of lowercase hex strings; the empty string means
 * unbounded. Lowercase hex compares like the unsigned bytes it encodes, so plain string
 * comparison orders keys.
 */
public record KeyRange(String startKey, String endKey) {
    public KeyRange {
        if (startKey == null || endKey == null) {
            throw new IllegalArgumentException("key range: keys must not be null");
        }
        if (!endKey.isEmpty() && startKey.compareTo(endKey) >= 0) {
            throw new IllegalArgumentException("key range: startKey must be before endKey, got ["
                    + startKey + ", " + endKey + ")");
        }
    }

    public static KeyRange all() {
        return new KeyRange("", "");
    }

    /** True when {@code key} lies strictly inside, so splitting there leaves two non-empty ranges. */
    public boolean strictlyContains(String key) {
        return key.compareTo(startKey) > 0 && (endKey.isEmpty() || key.compareTo(endKey) < 0);
    }

    public KeyRange left(String splitKey) {
        return new KeyRange(startKey, splitKey);
    }

    public KeyRange right(String splitKey) {
        return new KeyRange(splitKey, endKey);
    }

    /** True when the two ranges share a key. */
    public boolean overlaps(KeyRange other) {
        return (other.endKey.isEmpty() || startKey.compareTo(other.endKey) < 0)
                && (endKey.isEmpty() || other.startKey.compareTo(endKey) < 0);
    }

    /** True when {@code next} starts exactly where this range ends. */
    public boolean adjacentTo(KeyRange next) {
        return !endKey.isEmpty() && endKey.equals(next.startKey);
    }
}
