package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.model.Region;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The writes a node applies as a replica of regions led by other nodes. Under HBase, HDFS writes
 * each WAL and flush block on the RegionServer's own DataNode and on replicas elsewhere, which
 * pipelines spread over the other nodes; on nodes of unequal capacity, in proportion to it. That
 * load does not move with the region: moving it off node a takes its writes there but leaves a
 * replica share behind, and the node it goes to stops applying one. A region of replicated writes
 * w led by node j adds {@code φ·w·s_k/(S − s_j)} to every other node k, s being the nodes' sizes
 * (capacity over the mean, summing to S); so node k applies {@code φ·s_k·(Q − W_k/(S − s_k))}, with
 * W_k the writes it leads and {@code Q = Σ_j W_j/(S − s_j)}. Together they apply φ times every
 * region's writes, wherever the regions are led: moves conserve the total.
 *
 * @param phi   φ: what a node applies for a unit of replicated writes led elsewhere, over all replicas
 * @param size  per node index, its size s
 * @param total S: the sizes of every node of the cluster (of more than these nodes, in a model of part of it)
 * @param prior the write weights {@link CostFeatures#replicated} weighs a region's writes by
 */
public record Followers(double phi, double[] size, double total, double[] prior) {
    public Followers {
        size = size.clone();
        prior = prior.clone();
    }

    /**
     * Each node's size, when the window can show followers apart from the rest; empty when it
     * cannot: a ring (its snapshot lists every replica as a region of its own), or nodes of equal
     * size, where every node's share of the replicas is the same and the per-node constant and the
     * regions' own write weights carry them exactly.
     */
    static double[] sizes(ClusterSnapshot s, Dimension d) {
        int n = s.nodes().size();
        if (n < 2 || s.replication() > 0 || !s.ring().isEmpty() || !s.hasCapacities()) {
            return new double[0];
        }
        double[] size = Normalisation.sizes(s, d);
        for (double x : size) {
            if (Math.abs(x - size[0]) > 1e-9 * size[0]) {
                return size;
            }
        }
        return new double[0];
    }

    /** Followers at weight φ on a window's nodes; null when φ is 0 or the window cannot show them. */
    static Followers of(ClusterSnapshot s, Dimension d, double phi, double[] prior) {
        double[] size = sizes(s, d);
        return phi > 0 && size.length > 0 ? new Followers(phi, size, java.util.Arrays.stream(size).sum(), prior) : null;
    }

    /**
     * Per node, {@code s_k·(Q − W_k/(S − s_k))} for {@code led} (W_k per node): the replica writes
     * it applies per unit of φ.
     */
    static double[] replicas(double[] size, double total, double[] led) {
        double q = 0;
        for (int j = 0; j < led.length; j++) {
            q += led[j] / (total - size[j]);
        }
        double[] out = new double[led.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = size[k] * (q - led[k] / (total - size[k]));
        }
        return out;
    }

    /** Region r's replicated writes. */
    public double weight(Region r) {
        return CostFeatures.replicated(r.counters(), prior);
    }

    /** What node j stops applying when a region of {@code weight} comes to lead there (and applies once it leaves). */
    public double at(int j, double weight) {
        return phi * weight * size[j] / (total - size[j]);
    }

    /**
     * What every node k applies more (or less) once a region of {@code weight} is led by node
     * {@code to} instead of {@code from}, beside {@link #at}: the others' shares of its replicas change with
     * its leader's size.
     */
    public double spread(int k, int from, int to, double weight) {
        return phi * weight * size[k] * (1 / (total - size[to]) - 1 / (total - size[from]));
    }

    /** Whether a move between these two nodes changes what the others apply (they differ in size). */
    public boolean spreads(int from, int to) {
        return size[from] != size[to];
    }

    /** Per node, what it applies for the regions led elsewhere in this layout. */
    double[] loads(List<Region> regions, ToIntFunction<String> node) {
        double[] led = new double[size.length];
        for (Region r : regions) {
            led[node.applyAsInt(r.node())] += weight(r);
        }
        double[] out = replicas(size, total, led);
        for (int k = 0; k < out.length; k++) {
            out[k] *= phi;
        }
        return out;
    }

    /** The same followers on some of the nodes (their indices in this one's order), sized as before. */
    Followers on(int[] kept) {
        double[] s = new double[kept.length];
        for (int i = 0; i < kept.length; i++) {
            s[i] = size[kept[i]];
        }
        return new Followers(phi, s, total, prior);
    }
}
