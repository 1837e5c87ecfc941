package io.libra.core.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Request densities and value sizes over the key cells, one generator per workload shape. */
final class Hotness {
    /** Mixgraph's two-term exponential key-range hotness, with the parameters of the paper's §V. */
    static final double A = 14.18;
    static final double B = -2.917;
    static final double C = 0.0164;
    static final double D = -0.08082;

    /** How many of the hottest key ranges hold the smallest values in the anti-correlated layout. */
    static final int SMALL_HOT_RANGES = 2;

    private Hotness() {
    }

    /** f(x) = a·e^{bx} + c·e^{dx}. */
    static double mixgraph(double x) {
        return A * Math.exp(B * x) + C * Math.exp(D * x);
    }

    /**
     * Mixgraph as db_bench generates it: key range number x = 1..K gets weight f(x), the ranges
     * are shuffled over the key space, and keys inside a range are unevenly hot (log-normal).
     *
     * @return per key range, its hotness rank (0 = hottest); fills {@code share}
     */
    static int[] mixgraph(double[] share, int ranges, SplittableRandom rnd) {
        int[] rankAt = shuffled(ranges, rnd);
        int per = share.length / ranges;
        for (int k = 0; k < ranges; k++) {
            double rangeWeight = mixgraph(rankAt[k] + 1);
            double[] inner = new double[per];
            double sum = 0;
            for (int g = 0; g < per; g++) {
                inner[g] = Math.exp(0.75 * gaussian(rnd));
                sum += inner[g];
            }
            for (int g = 0; g < per; g++) {
                share[k * per + g] = rangeWeight * inner[g] / sum;
            }
        }
        normalise(share);
        return rankAt;
    }

    /**
     * YCSB's scrambled zipfian (θ = 0.99) over a million hashed keys: the thousand hottest keys land
     * in random cells, the long tail spreads evenly.
     */
    static void zipf(double[] share, SplittableRandom rnd) {
        int keys = 1_000_000;
        int explicit = 1000;
        double theta = 0.99;
        double h = 0;
        for (int k = 1; k <= keys; k++) {
            h += Math.pow(k, -theta);
        }
        double tail = 1;
        for (int k = 1; k <= explicit; k++) {
            double p = Math.pow(k, -theta) / h;
            share[rnd.nextInt(share.length)] += p;
            tail -= p;
        }
        for (int g = 0; g < share.length; g++) {
            share[g] += tail / share.length;
        }
        normalise(share);
    }

    /** YCSB's "latest": recency-zipfian with keys inserted in order, so the key space's tail is hot. */
    static void latest(double[] share) {
        int n = share.length;
        for (int g = 0; g < n; g++) {
            share[g] = Math.pow(n - g, -0.99);
        }
        normalise(share);
    }

    static void uniform(double[] share) {
        Arrays.fill(share, 1.0 / share.length);
    }

    /**
     * Per key range, a mean value size from a generalized Pareto distribution. With
     * {@code antiCorrelated} the {@link #SMALL_HOT_RANGES} hottest ranges hold the smallest values
     * (counters and metadata: hot, small records that burn CPU) and the other ranges draw theirs
     * independently of hotness (some cold ranges hold large values that burn disk); otherwise all
     * sizes are independent of hotness. Scaled so the request-weighted mean is {@code meanBytes}.
     */
    static void paretoValues(double[] value, double[] share, int ranges, int[] rankAt, boolean antiCorrelated,
                             double meanBytes, SplittableRandom rnd) {
        double[] sizes = new double[ranges];
        for (int k = 0; k < ranges; k++) {
            sizes[k] = generalizedPareto(rnd, 0.35, 1.0);
        }
        double[] byRange = new double[ranges];
        if (antiCorrelated) {
            Arrays.sort(sizes);
            int[] rest = shuffled(ranges - SMALL_HOT_RANGES, rnd);
            for (int k = 0; k < ranges; k++) {
                int rank = rankAt[k];
                byRange[k] = rank < SMALL_HOT_RANGES ? sizes[rank] : sizes[SMALL_HOT_RANGES + rest[rank - SMALL_HOT_RANGES]];
            }
        } else {
            System.arraycopy(sizes, 0, byRange, 0, ranges);
        }
        int per = value.length / ranges;
        for (int g = 0; g < value.length; g++) {
            value[g] = byRange[Math.min(ranges - 1, g / per)];
        }
        double weighted = 0;
        for (int g = 0; g < value.length; g++) {
            weighted += share[g] * value[g];
        }
        for (int g = 0; g < value.length; g++) {
            value[g] = Math.max(16, value[g] * meanBytes / weighted);
        }
    }

    /** Per key range, a log-normal (σ = 1) mean value size, scaled so the request-weighted mean is {@code meanBytes}. */
    static void logNormalValues(double[] value, double[] share, int ranges, double meanBytes, SplittableRandom rnd) {
        int per = value.length / ranges;
        double[] byRange = new double[ranges];
        for (int k = 0; k < ranges; k++) {
            byRange[k] = Math.exp(gaussian(rnd));
        }
        double weighted = 0;
        for (int g = 0; g < value.length; g++) {
            value[g] = byRange[Math.min(ranges - 1, g / per)];
            weighted += share[g] * value[g];
        }
        for (int g = 0; g < value.length; g++) {
            value[g] = Math.max(16, value[g] * meanBytes / weighted);
        }
    }

    /** Generalized Pareto with shape ξ and scale σ (location 0), by inversion. */
    static double generalizedPareto(SplittableRandom rnd, double xi, double sigma) {
        double u = rnd.nextDouble();
        return sigma * (Math.pow(1 - u, -xi) - 1) / xi + 0.05;
    }

    static int[] shuffled(int n, SplittableRandom rnd) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    static double gaussian(SplittableRandom rnd) {
        double u = Math.max(1e-12, rnd.nextDouble());
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }

    static void normalise(double[] a) {
        double s = 0;
        for (double x : a) {
            s += x;
        }
        for (int i = 0; i < a.length; i++) {
            a[i] /= s;
        }
    }
}
