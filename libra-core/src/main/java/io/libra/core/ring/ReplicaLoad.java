package io.libra.core.ring;

/**
 * What each replica of one ring segment carries for one replication group (all keyspaces
 * with the same replication factor): busy cores, disk bytes/s and the bytes it holds.
 */
public record ReplicaLoad(int replicationFactor, double cpu, double disk, double sizeBytes) {
    public ReplicaLoad {
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor: must be >= 1, got " + replicationFactor);
        }
        nonNegative("cpu", cpu);
        nonNegative("disk", disk);
        nonNegative("sizeBytes", sizeBytes);
    }

    static void nonNegative(String field, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException(field + ": must be a finite number >= 0, got " + v);
        }
    }
}
