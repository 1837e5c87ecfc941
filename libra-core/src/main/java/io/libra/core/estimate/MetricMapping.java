package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.List;

/**
 * Metric mapping (§IV-A): a node's measured CPU and disk are shared among its regions in
 * proportion to their request weights,
 * {@code α_i = A_j·(ROPS_i + c·WOPS_i)/(ROPS_j + c·WOPS_j)}, and the same with the disk cost
 * model for β_i. What no counter explains stays with the node as base load.
 */
public final class MetricMapping {
    private final EstimationConfig config;

    public MetricMapping(EstimationConfig config) {
        this.config = config;
    }

    public EstimationConfig config() {
        return config;
    }

    public LoadModel estimate(ClusterSnapshot snapshot) {
        List<Node> nodes = snapshot.nodes();
        int n = nodes.size();
        java.util.Map<String, Integer> index = new java.util.HashMap<>(n * 2);
        for (int j = 0; j < n; j++) {
            index.put(nodes.get(j).id(), j);
        }
        double[] cpuWeight = new double[n];
        double[] diskWeight = new double[n];
        for (Region r : snapshot.regions()) {
            int j = index.get(r.node());
            cpuWeight[j] += config.cpuWeight(r.counters());
            diskWeight[j] += config.disk().cost(r.counters());
        }
        List<RegionLoad> loads = new ArrayList<>(snapshot.regions().size());
        for (Region r : snapshot.regions()) {
            int j = index.get(r.node());
            Node node = nodes.get(j);
            double a = share(node.cpuUsage(), config.cpuWeight(r.counters()), cpuWeight[j]);
            double b = share(node.diskBytesPerSec(), config.disk().cost(r.counters()), diskWeight[j]);
            loads.add(new RegionLoad(r, a, b));
        }
        double[] baseCpu = new double[n];
        double[] baseDisk = new double[n];
        for (int j = 0; j < n; j++) {
            baseCpu[j] = cpuWeight[j] > 0 ? 0 : nodes.get(j).cpuUsage();
            baseDisk[j] = diskWeight[j] > 0 ? 0 : nodes.get(j).diskBytesPerSec();
        }
        return new LoadModel(nodes, loads, baseCpu, baseDisk);
    }

    private static double share(double measured, double weight, double total) {
        return total > 0 ? measured * weight / total : 0.0;
    }
}
