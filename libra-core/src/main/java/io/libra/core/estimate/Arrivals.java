package io.libra.core.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The summed features of the regions that came to a node from each other node since the window
 * before, laid out flat: {@link NodeBackgrounds} weighs them on every refit, and windows drawn
 * apart bring a node regions from most others (on 1,000 nodes, hundreds of thousands of small
 * arrays scattered over the heap, against one pass over one array per node).
 *
 * @param from     the node each run of features came from, in the order they are laid out
 * @param features {@link CostFeatures#count()} summed features per node in {@code from}, one after another
 */
record Arrivals(List<String> from, double[] features) {
    static final Arrivals NONE = new Arrivals(List.of(), new double[0]);

    Arrivals {
        from = List.copyOf(from);
        features = features.clone();
    }

    /** {@code byFrom}'s entries in its iteration order (a fixed order keeps the sums alike run to run). */
    static Arrivals of(Map<String, double[]> byFrom) {
        if (byFrom.isEmpty()) {
            return NONE;
        }
        int width = CostFeatures.count();
        List<String> from = new ArrayList<>(byFrom.size());
        double[] flat = new double[byFrom.size() * width];
        for (Map.Entry<String, double[]> e : byFrom.entrySet()) {
            System.arraycopy(e.getValue(), 0, flat, from.size() * width, width);
            from.add(e.getKey());
        }
        return new Arrivals(from, flat);
    }

    int size() {
        return from.size();
    }

    /** The cost {@code w} gives the regions that came from {@code from(i)}. */
    double cost(int i, double[] w) {
        int width = CostFeatures.count();
        int base = i * width;
        double s = 0;
        for (int k = 0; k < width; k++) {
            s += w[k] * features[base + k];
        }
        return s;
    }
}
