package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Short human sentences for reasons; plain concatenation because plans can hold many actions.
 * Numbers a reason compares are printed with as many decimals as the comparison needs, so a test
 * that held never reads false ("0.0021 > 0.002", not "0.002 > 0.002").
 */
public final class Notes {
    /** Decimals a number gets when nothing is compared with it. */
    private static final int PLAIN = 3;

    private Notes() {
    }

    public static String num(double x) {
        return fixed(x, PLAIN);
    }

    /** {@code a}, {@code relation} and {@code b}, with the decimals at which a and b compare as they do. */
    public static String compared(double a, String relation, double b) {
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return fixed(a, PLAIN) + relation + fixed(b, PLAIN);
        }
        // each number's shortest representation once: a plan's reasons compare thousands
        BigDecimal x = BigDecimal.valueOf(a);
        BigDecimal y = BigDecimal.valueOf(b);
        int d = decimals(a, b, x, y);
        return fixed(x, d) + relation + fixed(y, d);
    }

    /** {@code x} with the decimals that show how it compares with {@code than}, which the caller writes. */
    public static String against(double x, double than) {
        return fixed(x, decimals(x, than));
    }

    /** The fewest decimals, three or more, at which a and b, rounded, still compare as they do. */
    static int decimals(double a, double b) {
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return PLAIN;
        }
        return decimals(a, b, BigDecimal.valueOf(a), BigDecimal.valueOf(b));
    }

    /** As {@link #decimals(double, double)}, for finite a and b and their shortest representations x and y. */
    private static int decimals(double a, double b, BigDecimal x, BigDecimal y) {
        int want = a < b ? -1 : a > b ? 1 : 0;
        // at the larger scale of the two shortest representations, rounding is exact
        int most = Math.max(x.scale(), y.scale());
        for (int d = PLAIN; d < most; d++) {
            if (Integer.signum(round(x, d).compareTo(round(y, d))) == want) {
                return d;
            }
        }
        return Math.max(PLAIN, most);
    }

    /** x rounded to d decimals, trailing zeros dropped but one kept so it still reads as a figure. */
    static String fixed(double x, int d) {
        return Double.isFinite(x) ? fixed(BigDecimal.valueOf(x), d) : Double.toString(x);
    }

    private static String fixed(BigDecimal x, int d) {
        String s = round(x, d).stripTrailingZeros().toPlainString();
        return s.indexOf('.') < 0 ? s + ".0" : s;
    }

    private static BigDecimal round(BigDecimal x, int d) {
        return x.setScale(d, RoundingMode.HALF_EVEN);
    }

    /** Why the source sheds load: its critical dimension is above its target. */
    static String critical(WorkingState state, int source, Dimension d) {
        double x = state.normalised(source, d);
        return state.nodeId(source) + " " + d.label() + " " + against(x, 1) + " > 1 (critical)";
    }

    /** The trigger followed by each passed condition's own test, evaluated before the action. */
    static String passed(String trigger, List<MigrationCondition> passed, Candidate c) {
        StringBuilder b = new StringBuilder(trigger);
        for (MigrationCondition m : passed) {
            b.append("; ").append(m.explain(c));
        }
        return b.toString();
    }

    static String split(String trigger, SplitBound bound, Candidate c, double ratio) {
        return trigger + "; " + bound.explain(c) + " and no region on the node could move whole; split at load ratio "
                + num(ratio);
    }
}
