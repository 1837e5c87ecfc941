package io.libra.core.sim;

import java.util.Locale;

/**
 * Maps positions in the key space [0, 1) to 8-byte lowercase hex keys and back, so the
 * simulator can describe workloads over positions and still speak the snapshot's key format.
 * 0 and 1 map to "" (unbounded start and end).
 */
public final class KeySpace {
    private static final double TWO_64 = 18446744073709551616.0;

    private KeySpace() {
    }

    public static String key(double x) {
        if (x <= 0 || x >= 1) {
            return "";
        }
        long v = (long) Math.min(Long.MAX_VALUE, Math.floor(x * 9223372036854775808.0)) << 1;
        return String.format(Locale.ROOT, "%016x", v);
    }

    /** Position of a key as a fraction of the key space; "" at the start of a range is 0. */
    public static double position(String key) {
        if (key.isEmpty()) {
            return 0;
        }
        String h = key.length() >= 16 ? key.substring(0, 16) : (key + "0000000000000000").substring(0, 16);
        long v = Long.parseUnsignedLong(h, 16);
        double d = (double) (v >>> 1) * 2.0 + (v & 1);
        return d / TWO_64;
    }

    /** Position of a range's end key ("" = 1). */
    public static double endPosition(String key) {
        return key.isEmpty() ? 1.0 : position(key);
    }
}
