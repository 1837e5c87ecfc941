package io.libra.core.ring;

import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;

/** The ring searches' measures of a layout from every node's normalised loads {A′_j, B′_j} (eq. 1–4). */
final class Imbalance {
    private Imbalance() {
    }

    /** The highest A′ and B′ (Max/Mean on a homogeneous ring) and Δ (eq. 4). */
    static Balance balance(double[][] normalised) {
        double c = 0;
        double d = 0;
        for (double[] x : normalised) {
            c = Math.max(c, x[0]);
            d = Math.max(d, x[1]);
        }
        return new Balance(c, d, Math.max(c, d) - 1);
    }

    /**
     * Sum of squared positive deviations: breaks ties of Δ when two nodes share the maximum, so a
     * search can lower one of them first (the only way forward with replicas on several nodes).
     */
    static double spread(double[][] normalised) {
        return spread(normalised.length, j -> Normalisation.deviation(normalised[j][0], normalised[j][1]));
    }

    /** As {@link #spread(double[][])}, from each node's deviation δ_j (eq. 3), computed as asked. */
    static double spread(int nodes, java.util.function.IntToDoubleFunction deviation) {
        double s = 0;
        for (int j = 0; j < nodes; j++) {
            double dev = Math.max(0, deviation.applyAsDouble(j));
            s += dev * dev;
        }
        return s;
    }
}
