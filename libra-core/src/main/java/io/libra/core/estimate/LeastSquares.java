package io.libra.core.estimate;

/**
 * Ordinary least squares through the origin (no load, no usage): {@code y ≈ Σ b_k·x_k}, with
 * the centred R² as the quality of the fit. A handful of unknowns: the normal equations are
 * solved by Gaussian elimination with partial pivoting.
 */
record LeastSquares(double[] coefficients, double rSquared, boolean solvable) {
    private static final double SINGULAR = 1e-10;

    static LeastSquares fit(double[][] columns, double[] y) {
        int k = columns.length;
        int n = y.length;
        if (n < k + 1) {
            return new LeastSquares(new double[k], 0, false);
        }
        double[][] a = new double[k][k + 1];
        for (int p = 0; p < k; p++) {
            for (int q = 0; q < k; q++) {
                a[p][q] = dot(columns[p], columns[q]);
            }
            a[p][k] = dot(columns[p], y);
        }
        double[] b = solve(a);
        if (b == null) {
            return new LeastSquares(new double[k], 0, false);
        }
        return new LeastSquares(b, rSquared(columns, y, b), true);
    }

    private static double dot(double[] u, double[] v) {
        double s = 0;
        for (int i = 0; i < u.length; i++) {
            s += u[i] * v[i];
        }
        return s;
    }

    /** Solves the augmented system in place; null when it is (nearly) singular. */
    private static double[] solve(double[][] a) {
        int k = a.length;
        double scale = 0;
        for (int p = 0; p < k; p++) {
            scale = Math.max(scale, Math.abs(a[p][p]));
        }
        for (int col = 0; col < k; col++) {
            int pivot = col;
            for (int row = col + 1; row < k; row++) {
                if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) {
                    pivot = row;
                }
            }
            if (Math.abs(a[pivot][col]) <= SINGULAR * scale) {
                return null;
            }
            double[] t = a[col];
            a[col] = a[pivot];
            a[pivot] = t;
            for (int row = 0; row < k; row++) {
                if (row != col) {
                    double f = a[row][col] / a[col][col];
                    for (int c = col; c <= k; c++) {
                        a[row][c] -= f * a[col][c];
                    }
                }
            }
        }
        double[] b = new double[k];
        for (int p = 0; p < k; p++) {
            b[p] = a[p][k] / a[p][p];
        }
        return b;
    }

    private static double rSquared(double[][] columns, double[] y, double[] b) {
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= y.length;
        double ssRes = 0;
        double ssTot = 0;
        for (int i = 0; i < y.length; i++) {
            double e = y[i];
            for (int p = 0; p < columns.length; p++) {
                e -= b[p] * columns[p][i];
            }
            ssRes += e * e;
            ssTot += (y[i] - mean) * (y[i] - mean);
        }
        return ssTot > 0 ? 1 - ssRes / ssTot : (ssRes == 0 ? 1 : 0);
    }
}
