package io.libra.core.ring;

/**
 * Murmur3 tokens (signed 64-bit) as hex keys. A token t is written as the unsigned value
 * {@code t + 2^63} in exactly 16 lowercase hex digits, so {@code Long.MIN_VALUE} is
 * {@code "0000000000000000"}, 0 is {@code "8000000000000000"} and {@code Long.MAX_VALUE} is
 * {@code "ffffffffffffffff"}: plain string order equals token order, as formats.md requires
 * of keys. Ring arithmetic uses long overflow, which is exactly arithmetic modulo 2^64.
 */
public final class Tokens {
    private Tokens() {
    }

    /** The hex key of a token. */
    public static String toKey(long token) {
        String s = Long.toHexString(token ^ Long.MIN_VALUE);
        return "0".repeat(16 - s.length()) + s;
    }

    /** The token of a 16-digit hex key. */
    public static long fromKey(String key) {
        if (key == null || key.length() != 16) {
            throw new IllegalArgumentException("token key: must be 16 lowercase hex digits, got " + key);
        }
        try {
            return Long.parseUnsignedLong(key, 16) ^ Long.MIN_VALUE;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("token key: must be 16 lowercase hex digits, got " + key);
        }
    }

    /** Clockwise distance from {@code from} to {@code to} as an unsigned 64-bit value (0 = same token). */
    public static long clockwise(long from, long to) {
        return to - from;
    }

    /** The clockwise span {@code span} as an unsigned width; 0 means the whole ring (2^64). */
    public static double width(long span) {
        return span == 0 ? 0x1p64 : (span >= 0 ? span : span + 0x1p64);
    }

    /** {@code from} plus {@code fraction} of the unsigned clockwise span, wrapping round the ring. */
    public static long advance(long from, long span, double fraction) {
        double step = width(span) * Math.max(0, Math.min(1, fraction));
        long offset = step >= 0x1p63 ? (long) (step - 0x1p64) : (long) step;
        return from + offset;
    }
}
