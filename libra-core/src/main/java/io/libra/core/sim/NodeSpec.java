package io.libra.core.sim;

/**
 * A simulated node's hardware: what its CPU and disk can do and how much block cache it has.
 *
 * @param cpuCores        cores available to the store
 * @param diskBytesPerSec disk bandwidth (read plus write) at saturation
 * @param cacheBytes      block cache shared by the node's regions
 */
public record NodeSpec(String id, double cpuCores, double diskBytesPerSec, double cacheBytes) {
    public NodeSpec {
        if (!(cpuCores > 0) || !(diskBytesPerSec > 0) || !(cacheBytes >= 0)) {
            throw new IllegalArgumentException("node " + id + ": cores and disk bandwidth must be > 0, cache >= 0");
        }
    }
}
