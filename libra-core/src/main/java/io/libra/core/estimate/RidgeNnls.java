package io.libra.core.estimate;

/**
 * Non-negative least squares pulled toward a prior: minimises
 * {@code |Xw − y|² + μ·Σ_k g_k·(w_k − p_k)²} subject to {@code w ≥ 0}, where {@code g_k} is the
 * squared norm of column k, so μ is scale-free (μ = 1 trusts the prior as much as the data).
 * Works on the normal equations (a handful of weights), by cyclic coordinate descent, which
 * keeps every weight non-negative at each step and converges for any μ &gt; 0.
 */
final class RidgeNnls {
    private static final int MAX_SWEEPS = 5000;
    private static final double TOLERANCE = 1e-12;

    private RidgeNnls() {
    }

    /**
     * @param gram  XᵀX (k × k)
     * @param xty   Xᵀy
     * @param prior p, where a column with no data ({@code g_k = 0}) stays
     * @param mu    pull toward the prior (&gt; 0)
     * @param fixed weights that stay at their prior value
     */
    static double[] solve(double[][] gram, double[] xty, double[] prior, double mu, boolean[] fixed) {
        int k = xty.length;
        double[] w = prior.clone();
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            double change = 0;
            double size = 0;
            for (int p = 0; p < k; p++) {
                double g = gram[p][p];
                if (g <= 0 || fixed[p]) {
                    continue;
                }
                double rest = xty[p] - dotExcept(gram[p], w, p);
                double next = Math.max(0, (rest + mu * g * prior[p]) / (g * (1 + mu)));
                change = Math.max(change, Math.abs(next - w[p]) * Math.sqrt(g));
                size = Math.max(size, Math.abs(next) * Math.sqrt(g));
                w[p] = next;
            }
            if (change <= TOLERANCE * Math.max(size, 1e-300)) {
                break;
            }
        }
        return w;
    }

    private static double dotExcept(double[] row, double[] w, int skip) {
        double s = 0;
        for (int q = 0; q < w.length; q++) {
            if (q != skip) {
                s += row[q] * w[q];
            }
        }
        return s;
    }
}
