package io.libra.core.ring;

/** A node's estimated load on the ring: absolute (cores, bytes/s) and normalised (A'_j, B'_j). */
public record RingNodeLoad(String node, double cpu, double disk, double normalizedCpu, double normalizedDisk) {
}
