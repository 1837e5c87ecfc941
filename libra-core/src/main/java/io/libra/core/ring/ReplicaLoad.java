package io.libra.core.ring;

/**
 * What each replica of one ring segment carries for one replica group: busy cores, disk
 * bytes/s and the bytes it holds.
 */
public record ReplicaLoad(ReplicaGroup group, double cpu, double disk, double sizeBytes) {
    public ReplicaLoad {
        if (group == null) {
            throw new IllegalArgumentException("group: must be given");
        }
        nonNegative("cpu", cpu);
        nonNegative("disk", disk);
        nonNegative("sizeBytes", sizeBytes);
    }

    /** A SimpleStrategy load: each range on its owner and the next {@code replicationFactor - 1} nodes. */
    public ReplicaLoad(int replicationFactor, double cpu, double disk, double sizeBytes) {
        this(simpleGroup(replicationFactor), cpu, disk, sizeBytes);
    }

    private static ReplicaGroup simpleGroup(int replicationFactor) {
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor: must be >= 1, got " + replicationFactor);
        }
        return ReplicaGroup.simple(replicationFactor);
    }

    public int replicationFactor() {
        return group.factor();
    }

    ReplicaLoad scaled(double f) {
        return new ReplicaLoad(group, cpu * f, disk * f, sizeBytes * f);
    }

    static void finite(String field, double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(field + ": must be a finite number, got " + v);
        }
    }

    static void nonNegative(String field, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException(field + ": must be a finite number >= 0, got " + v);
        }
    }
}
