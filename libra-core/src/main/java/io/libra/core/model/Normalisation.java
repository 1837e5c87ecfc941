package io.libra.core.model;

/**
 * The paper's normalisation (eq. 1–4), written once and used by the scheduler, the baselines,
 * the ring planner and the load model: a node's load divided by its target, its deviation δ,
 * and a region's share α′/β′ of a node's target. Targets are the mean on a homogeneous cluster
 * and the capacity share when every node declares a capacity.
 */
public final class Normalisation {
    private Normalisation() {
    }

    /**
     * Node j's target: the total load times its share, 1/n or capacity_j / Σ capacity.
     *
     * @param capacity per-node capacity in this dimension, or null for a homogeneous cluster
     */
    public static double[] targets(double[] load, double[] capacity) {
        double total = 0;
        for (double x : load) {
            total += x;
        }
        return targets(total, load.length, capacity);
    }

    /** The same from the cluster's total load, for planners that know it without per-node loads. */
    public static double[] targets(double total, int nodes, double[] capacity) {
        double capTotal = 0;
        if (capacity != null) {
            for (double c : capacity) {
                capTotal += c;
            }
        }
        double[] t = new double[nodes];
        for (int j = 0; j < t.length; j++) {
            double share = capacity != null ? capacity[j] / capTotal : 1.0 / nodes;
            t[j] = total * share;
        }
        return t;
    }

    /**
     * Each node's size in d relative to the cluster's mean node: capacity_j / mean capacity when every
     * node declares one, else 1 for all. Work that no region explains scales with it (a node twice
     * as large takes twice the replicas' writes, and runs twice the handlers).
     */
    public static double[] sizes(ClusterSnapshot s, Dimension d) {
        int n = s.nodes().size();
        if (!s.hasCapacities()) {
            double[] one = new double[n];
            java.util.Arrays.fill(one, 1);
            return one;
        }
        // n shared out by capacity: capacity_j / mean capacity
        return targets(n, n, s.nodes().stream().mapToDouble(node -> node.capacity().of(d)).toArray());
    }

    /** A′_j or B′_j (eq. 1); 1 when the whole cluster carries no load, so an idle cluster is balanced. */
    public static double normalised(double load, double target) {
        return target > 0 ? load / target : 1.0;
    }

    /** α′_i or β′_i (eq. 2): a part's share of a node's target; 0 when there is no target. */
    public static double share(double part, double target) {
        return target > 0 ? part / target : 0.0;
    }

    /** δ_j (eq. 3) from the node's two normalised loads; Δ (eq. 4) is its maximum over nodes. */
    public static double deviation(double cpu, double disk) {
        return peak(cpu, disk) - 1.0;
    }

    /** A node's peak: the larger of its two normalised loads, δ_j + 1. */
    public static double peak(double cpu, double disk) {
        return Math.max(cpu, disk);
    }
}
