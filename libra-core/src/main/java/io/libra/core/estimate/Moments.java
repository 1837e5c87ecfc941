package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import java.util.List;

/**
 * Sufficient statistics of a least-squares fit over node samples: XᵀX, Xᵀy and the count.
 * Held-out folds subtract, so cross-validation costs no second pass over the samples.
 */
final class Moments {
    private static final double COLLINEAR = 1e-9;

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
            double[] x = s.features();
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
        double num = 0;
        double den = 0;
        for (int p = 0; p < xty.length; p++) {
            num += priorShape[p] * xty[p];
            for (int q = 0; q < xty.length; q++) {
                den += priorShape[p] * gram[p][q] * priorShape[q];
            }
        }
        double scale = den > 0 && num > 0 ? num / den : 0;
        double[] w = new double[priorShape.length];
        for (int p = 0; p < w.length; p++) {
            w[p] = priorShape[p] * scale;
        }
        return w;
    }

    double[] solve(double pull) {
        return RidgeNnls.solve(gram, xty, scaledPrior(), pull);
    }

    /**
     * The name of a feature that the others explain exactly (cosine-normalised Cholesky pivot
     * near zero), or null when the active features are independent.
     */
    String collinear() {
        int k = xty.length;
        int[] active = new int[k];
        int n = 0;
        for (int p = 0; p < k; p++) {
            if (gram[p][p] > 0) {
                active[n++] = p;
            }
        }
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int p = active[i];
                int q = active[j];
                c[i][j] = gram[p][q] / Math.sqrt(gram[p][p] * gram[q][q]);
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double s = c[i][j];
                for (int m = 0; m < j; m++) {
                    s -= c[i][m] * c[j][m];
                }
                c[i][j] = s / c[j][j];
            }
            double pivot = c[i][i];
            for (int m = 0; m < i; m++) {
                pivot -= c[i][m] * c[i][m];
            }
            if (pivot <= COLLINEAR) {
                return CostFeatures.name(active[i]);
            }
            c[i][i] = Math.sqrt(pivot);
        }
        return null;
    }
}
