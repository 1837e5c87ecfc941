package io.libra.core.estimate;

/**
 * Ordinary least squares of {@code y ≈ a·x1 + b·x2} through the origin (no load, no usage),
 * with the centred R² as the quality of the fit. Two unknowns: the normal equations are solved
 * in closed form.
 */
record LeastSquares(double a, double b, double rSquared, boolean solvable) {
    private static final double SINGULAR = 1e-9;

    static LeastSquares fit(double[] x1, double[] x2, double[] y) {
        double s11 = 0;
        double s12 = 0;
        double s22 = 0;
        double s1y = 0;
        double s2y = 0;
        double sy = 0;
        int n = y.length;
        for (int i = 0; i < n; i++) {
            s11 += x1[i] * x1[i];
            s12 += x1[i] * x2[i];
            s22 += x2[i] * x2[i];
            s1y += x1[i] * y[i];
            s2y += x2[i] * y[i];
            sy += y[i];
        }
        double det = s11 * s22 - s12 * s12;
        if (n < 3 || Math.abs(det) <= SINGULAR * Math.max(1e-300, s11 * s22)) {
            return new LeastSquares(0, 0, 0, false);
        }
        double a = (s1y * s22 - s2y * s12) / det;
        double b = (s2y * s11 - s1y * s12) / det;
        double mean = sy / n;
        double ssRes = 0;
        double ssTot = 0;
        for (int i = 0; i < n; i++) {
            double e = y[i] - a * x1[i] - b * x2[i];
            ssRes += e * e;
            ssTot += (y[i] - mean) * (y[i] - mean);
        }
        double r2 = ssTot > 0 ? 1 - ssRes / ssTot : (ssRes == 0 ? 1 : 0);
        return new LeastSquares(a, b, r2, true);
    }
}
