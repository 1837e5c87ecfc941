package io.libra.core.sim;

/**
 * What a node really did over a window, according to the {@link CostModel}: busy cores, disk
 * bytes/s (read plus write), network bytes/s (in plus out) and user requests/s served.
 */
public record NodeTruth(String id, double cpu, double disk, double network, double requests) {
    public NodeTruth plus(double dCpu, double dDisk, double dNetwork, double dRequests) {
        return new NodeTruth(id, cpu + dCpu, disk + dDisk, network + dNetwork, requests + dRequests);
    }
}
