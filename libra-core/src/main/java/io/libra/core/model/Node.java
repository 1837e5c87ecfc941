package io.libra.core.model;

import java.util.Optional;

/**
 * A storage node as the operating system sees it over one window.
 *
 * @param cpuUsage        cores busy in the store's process (0 ≤ x ≤ cpuCores)
 * @param diskBytesPerSec bytes/s the store's process read plus wrote on disk
 * @param capacity        what the node can do, or null for a homogeneous cluster
 */
public record Node(String id, double cpuCores, double cpuUsage, double diskBytesPerSec, Capacity capacity) {
    public Node {
        Checks.id("node.id", id);
        Checks.positive("cpuCores", cpuCores);
        Checks.nonNegative("cpuUsage", cpuUsage);
        Checks.nonNegative("diskBytesPerSec", diskBytesPerSec);
    }

    public Node(String id, double cpuCores, double cpuUsage, double diskBytesPerSec) {
        this(id, cpuCores, cpuUsage, diskBytesPerSec, null);
    }

    public Optional<Capacity> optionalCapacity() {
        return Optional.ofNullable(capacity);
    }

    /** Measured load in one dimension: busy cores or disk bytes/s. */
    public double measured(Dimension d) {
        return d == Dimension.CPU ? cpuUsage : diskBytesPerSec;
    }

    public Node withMeasured(double cpu, double disk) {
        return new Node(id, cpuCores, cpu, disk, capacity);
    }
}
