package io.libra.core.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Arithmetic on lowercase hex keys, for choosing split keys when no histogram says where the
 * load lies. Keys are read as fractions of the key space at a common width, so "" (unbounded
 * start) is 0 and "" as an end is the top of the space.
 */
public final class Keys {
    private static final int MIN_WIDTH = 16;
    /** Fewest distinct keys a range must span before interpolating in it; else keys grow by a byte. */
    private static final BigInteger RESOLUTION = BigInteger.valueOf(1 << 16);

    private Keys() {
    }

    /** The key a fraction {@code f} of the way from start to end, strictly inside when possible. */
    public static String interpolate(KeyRange range, double f) {
        int width = Math.max(MIN_WIDTH, Math.max(range.startKey().length(), range.endKey().length()));
        width += width % 2;
        BigInteger lo = value(range.startKey(), width);
        BigInteger hi = top(range, width);
        while (hi.subtract(lo).compareTo(RESOLUTION) < 0) {
            width += 2;
            lo = value(range.startKey(), width);
            hi = top(range, width);
        }
        BigDecimal span = new BigDecimal(hi.subtract(lo));
        BigInteger offset = span.multiply(BigDecimal.valueOf(Math.min(1, Math.max(0, f))))
                .setScale(0, RoundingMode.HALF_EVEN).toBigInteger();
        BigInteger k = lo.add(offset).max(lo.add(BigInteger.ONE)).min(hi.subtract(BigInteger.ONE));
        return trim(hex(k, width), range);
    }

    private static BigInteger top(KeyRange range, int width) {
        return range.endKey().isEmpty() ? BigInteger.ONE.shiftLeft(width * 4) : value(range.endKey(), width);
    }

    /** Fraction of the range's key space that lies before {@code key}. */
    public static double position(KeyRange range, String key) {
        int width = Math.max(MIN_WIDTH, Math.max(key.length(), Math.max(range.startKey().length(), range.endKey().length())));
        width += width % 2;
        BigInteger lo = value(range.startKey(), width);
        BigInteger hi = range.endKey().isEmpty() ? BigInteger.ONE.shiftLeft(width * 4) : value(range.endKey(), width);
        BigInteger k = value(key, width);
        BigDecimal span = new BigDecimal(hi.subtract(lo));
        if (span.signum() <= 0) {
            return 0.5;
        }
        return new BigDecimal(k.subtract(lo)).divide(span, 12, RoundingMode.HALF_EVEN).doubleValue();
    }

    private static BigInteger value(String hex, int width) {
        if (hex.isEmpty()) {
            return BigInteger.ZERO;
        }
        StringBuilder sb = new StringBuilder(hex);
        while (sb.length() < width) {
            sb.append('0');
        }
        return new BigInteger(sb.substring(0, width), 16);
    }

    private static String hex(BigInteger v, int width) {
        String s = v.toString(16);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }

    /** Drops trailing zero bytes while the key stays strictly inside the range. */
    private static String trim(String key, KeyRange range) {
        String k = key;
        while (k.length() > 2 && k.endsWith("00")) {
            String shorter = k.substring(0, k.length() - 2);
            if (!range.strictlyContains(shorter)) {
                break;
            }
            k = shorter;
        }
        return k;
    }

    /** True for a lowercase hex string of whole bytes (or empty). */
    public static boolean isHex(String s) {
        if (s.length() % 2 != 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
