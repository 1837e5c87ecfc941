package io.libra.core.model;

/**
 * What a node can do: CPU in cores and disk in bytes/s. Used to give heterogeneous nodes
 * targets proportional to their capacity (ALOR-style capacity weights).
 */
public record Capacity(double cpu, double diskBytesPerSec) {
    public Capacity {
        Checks.positive("cpuCapacity", cpu);
        Checks.positive("diskCapacityBytesPerSec", diskBytesPerSec);
    }

    public double of(Dimension d) {
        return d == Dimension.CPU ? cpu : diskBytesPerSec;
    }
}
