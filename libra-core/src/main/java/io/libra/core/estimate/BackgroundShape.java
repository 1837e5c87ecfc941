package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import java.util.Arrays;

/**
 * How a node's background, the work no region explains, differs between nodes of unequal size:
 * in proportion to their capacity (handlers, caches and flushes sized to the node), or the same
 * on each (a daemon's fixed work). Nothing in a snapshot says which; on a cluster that declares
 * capacities the estimator fits both and keeps the one that predicts held-out nodes better.
 */
public enum BackgroundShape {
    CAPACITY("each node's in proportion to its capacity"),
    NODE("the same on each node, which held out better than in proportion to capacity");

    /** The shape in each dimension. */
    public record Both(BackgroundShape cpu, BackgroundShape disk) {
        public static final Both CAPACITY = new Both(BackgroundShape.CAPACITY, BackgroundShape.CAPACITY);
        static final Both NODE = new Both(BackgroundShape.NODE, BackgroundShape.NODE);
    }

    private final String describe;

    BackgroundShape(String describe) {
        this.describe = describe;
    }

    /** Each node's share of one background in d, relative to the mean node. */
    double[] sizes(ClusterSnapshot s, Dimension d) {
        if (this == CAPACITY) {
            return Normalisation.sizes(s, d);
        }
        double[] one = new double[s.nodes().size()];
        Arrays.fill(one, 1);
        return one;
    }

    String describe() {
        return describe;
    }
}
