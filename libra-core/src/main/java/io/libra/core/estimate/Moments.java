package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import java.util.List;

/**
 * Sufficient statistics of a least-squares fit over node samples: XᵀX, Xᵀy and the count.
 * Held-out folds subtract, so cross-validation costs no second pass over the samples.
 */
final class Moments {
    private static final double COLLINEAR = 1e-9;
    /** Kinds of feature {@link #scaledPriorByKind} scales apart: background, reads, writes, replica writes. */
    private static final int KINDS = 4;

    private final double[][] gram;
    private final double[] xty;
    private final int count;
    private final double[] priorShape;

    private Moments(double[][] gram, double[] xty, int count, double[] priorShape) {
        this.gram = gram;
        this.xty = xty;
        this.count = count;
        this.priorShape = priorShape;
    }

    static Moments of(Dimension d, List<NodeSample> samples, double[] priorShape) {
        int k = priorShape.length;
        double[][] g = new double[k][k];
        double[] b = new double[k];
        for (NodeSample s : samples) {
            double[] x = s.features(d);
            double y = s.measured(d);
            for (int p = 0; p < k; p++) {
                if (x[p] == 0) {
                    continue;
                }
                b[p] += x[p] * y;
                for (int q = 0; q < k; q++) {
                    g[p][q] += x[p] * x[q];
                }
            }
        }
        return new Moments(g, b, samples.size(), priorShape);
    }

    Moments minus(Moments o) {
        int k = xty.length;
        double[][] g = new double[k][k];
        double[] b = new double[k];
        for (int p = 0; p < k; p++) {
            b[p] = xty[p] - o.xty[p];
            for (int q = 0; q < k; q++) {
                g[p][q] = gram[p][q] - o.gram[p][q];
            }
        }
        return new Moments(g, b, count - o.count, priorShape);
    }

    int count() {
        return count;
    }

    int activeFeatures() {
        int n = 0;
        for (int p = 0; p < xty.length; p++) {
            if (gram[p][p] > 0) {
                n++;
            }
        }
        return n;
    }

    /** The mapping as a predictor: the prior's shape times the scale that best fits these samples. */
    double[] scaledPrior() {
        double scale = priorScale();
        double[] w = new double[priorShape.length];
        for (int p = 0; p < w.length; p++) {
            w[p] = priorShape[p] * scale;
        }
        return w;
    }

    /** A constant per node of mean size: every node predicted at the mean, which no region's cost moves. */
    double[] backgroundOnly() {
        int bg = CostFeatures.BACKGROUND;
        double[] w = new double[priorShape.length];
        w[bg] = gram[bg][bg] > 0 ? Math.max(0, xty[bg] / gram[bg][bg]) : 0;
        return w;
    }

    /** The scale of {@link #scaledPrior}. */
    private double priorScale() {
        double num = 0;
        double den = 0;
        for (int p = 0; p < xty.length; p++) {
            num += priorShape[p] * xty[p];
            for (int q = 0; q < xty.length; q++) {
                den += priorShape[p] * gram[p][q] * priorShape[q];
            }
        }
        return den > 0 && num > 0 ? num / den : 0;
    }

    /**
     * The mapping with a per-node background: {@code b + a × (prior shape · x)}, both non-negative.
     * Two weights, so a single window of a few nodes can fit it; a node's work that no region
     * explains (replicas applying writes led elsewhere, compaction, other processes) goes to
     * {@code b} instead of being shared among its regions.
     */
    double[] scaledPriorWithBackground() {
        double[] ba = backgroundAndScale();
        if (ba == null) {
            return scaledPrior();
        }
        double[] w = new double[priorShape.length];
        for (int p = 0; p < w.length; p++) {
            w[p] = priorShape[p] * ba[1];
        }
        w[CostFeatures.BACKGROUND] = ba[0];
        return w;
    }

    /** {b, a} of {@link #scaledPriorWithBackground}; null when either would not be positive. */
    private double[] backgroundAndScale() {
        int bg = CostFeatures.BACKGROUND;
        double uu = gram[bg][bg];
        double uy = xty[bg];
        double uv = 0;
        double vv = 0;
        double vy = 0;
        for (int p = 0; p < xty.length; p++) {
            uv += gram[bg][p] * priorShape[p];
            vy += priorShape[p] * xty[p];
            for (int q = 0; q < xty.length; q++) {
                vv += priorShape[p] * gram[p][q] * priorShape[q];
            }
        }
        double det = uu * vv - uv * uv;
        double b = det > 0 ? (vv * uy - uv * vy) / det : 0;
        double a = det > 0 ? (uu * vy - uv * uy) / det : 0;
        return det > 0 && b > 0 && a > 0 ? new double[] {b, a} : null;
    }

    /**
     * The mapping with its read and its write parts scaled apart, plus a per-node background:
     * {@code b + a_r × (prior reads · x) + a_w × (prior writes · x)} (+ {@code φ ×} the replica writes
     * a node applies, where its window shows them: {@link Followers}), pulled toward the two-weight
     * model (φ toward 0) by {@code pull}. Three weights (a fourth with replica writes): what the
     * paper's correction factor (and its write cost on disk) gets wrong is the ratio of writes to
     * reads, which this learns from few samples.
     */
    double[] scaledPriorByKind(double pull) {
        double[][] g = new double[KINDS][KINDS];
        double[] y = new double[KINDS];
        for (int p = 0; p < xty.length; p++) {
            double sp = shapeByKind(p);
            y[CostFeatures.kind(p)] += sp * xty[p];
            for (int q = 0; q < xty.length; q++) {
                g[CostFeatures.kind(p)][CostFeatures.kind(q)] += sp * gram[p][q] * shapeByKind(q);
            }
        }
        double[] ba = backgroundAndScale();
        double[] start = ba != null ? new double[] {ba[0], ba[1], ba[1], 0} : new double[] {0, priorScale(), priorScale(), 0};
        double[] k = RidgeNnls.solve(g, y, start, pull, new boolean[KINDS]);
        double[] w = new double[priorShape.length];
        for (int p = 0; p < w.length; p++) {
            w[p] = shapeByKind(p) * k[CostFeatures.kind(p)];
        }
        return w;
    }

    /** Feature p's weight within its kind: the prior's, and 1 for the per-node features (their kind is their weight). */
    private double shapeByKind(int p) {
        return CostFeatures.perNode(p) ? 1 : priorShape[p];
    }

    /** The fit pulled toward the scaled prior; {@code dropped} features keep weight 0. */
    double[] solve(double pull, boolean[] dropped) {
        return RidgeNnls.solve(gram, xty, scaledPrior(dropped), pull, dropped);
    }

    /** {@link #scaledPrior()} with the {@code dropped} features at 0. */
    double[] scaledPrior(boolean[] dropped) {
        double[] prior = scaledPrior();
        for (int p = 0; p < prior.length; p++) {
            if (dropped[p]) {
                prior[p] = 0;
            }
        }
        return prior;
    }

    /**
     * Features that the others explain exactly on these samples (cosine-normalised Cholesky
     * pivot near zero), in feature order: node totals cannot tell their weight apart, so they
     * are left out and the features they follow carry their cost.
     */
    boolean[] collinear() {
        int k = xty.length;
        boolean[] dropped = new boolean[k];
        double[][] l = new double[k][k];
        int[] kept = new int[k];
        int n = 0;
        for (int p = 0; p < k; p++) {
            if (gram[p][p] <= 0) {
                continue;
            }
            double[] row = new double[n];
            double pivot = 1;
            for (int j = 0; j < n; j++) {
                int q = kept[j];
                double s = gram[p][q] / Math.sqrt(gram[p][p] * gram[q][q]);
                for (int m = 0; m < j; m++) {
                    s -= row[m] * l[j][m];
                }
                row[j] = s / l[j][j];
                pivot -= row[j] * row[j];
            }
            if (pivot <= COLLINEAR) {
                dropped[p] = true;
                continue;
            }
            System.arraycopy(row, 0, l[n], 0, n);
            l[n][n] = Math.sqrt(pivot);
            kept[n++] = p;
        }
        return dropped;
    }
}
