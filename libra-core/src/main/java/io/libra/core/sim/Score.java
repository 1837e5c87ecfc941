package io.libra.core.sim;

import java.util.List;

/**
 * The truth of an assignment of regions to nodes: per-node load and, per dimension, Max/Mean of
 * utilisation (load over capacity, against the cluster's mean utilisation, so heterogeneous
 * nodes compare fairly; on equal nodes this is plain Max/Mean of load).
 */
public record Score(List<NodeSpec> specs, List<NodeTruth> nodes, double cpuMaxOverMean, double diskMaxOverMean) {
    public Score {
        specs = List.copyOf(specs);
        nodes = List.copyOf(nodes);
    }

    /** The larger of the two Max/Mean ratios. */
    public double worst() {
        return Math.max(cpuMaxOverMean, diskMaxOverMean);
    }

    /** Highest utilisation of any node in any dimension (1 = saturated). */
    public double peakUtilisation() {
        double peak = 0;
        for (int j = 0; j < nodes.size(); j++) {
            peak = Math.max(peak, Math.max(nodes.get(j).cpu() / specs.get(j).cpuCores(),
                    nodes.get(j).disk() / specs.get(j).diskBytesPerSec()));
        }
        return peak;
    }
}
