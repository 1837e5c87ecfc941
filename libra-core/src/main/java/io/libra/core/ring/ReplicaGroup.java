package io.libra.core.ring;

import java.util.Comparator;

/**
 * The replicas one load is spread over: a {@code SimpleStrategy} replication (its factor's next
 * nodes clockwise, {@code dc} "") or one data centre's share of a {@code NetworkTopologyStrategy}
 * one (each data centre replicates separately, so its replicas carry their own per-replica load).
 * Keyspaces with the same replication share a group: their ranges are placed alike.
 */
public record ReplicaGroup(RingTopology.Replication replication, String dc) {
    static final Comparator<ReplicaGroup> ORDER = Comparator
            .comparing((ReplicaGroup g) -> g.replication().strategy())
            .thenComparing(g -> g.replication().rfByDc().toString())
            .thenComparing(ReplicaGroup::dc);

    public ReplicaGroup {
        boolean simple = replication.simple();
        if (!replication.modelled()) {
            throw new IllegalArgumentException("replication: " + replication.strategy() + " is not modelled");
        }
        if (simple != dc.isEmpty() || replication.rfByDc().getOrDefault(dc, 0) < 1) {
            throw new IllegalArgumentException("replication " + replication.rfByDc() + ": data centre '" + dc
                    + "' holds no replica of it");
        }
    }

    public static ReplicaGroup simple(int factor) {
        return new ReplicaGroup(RingTopology.Replication.simple(factor), "");
    }

    /** Replicas per range in this group (before capping at the nodes there are). */
    public int factor() {
        return replication.rfByDc().get(dc);
    }

    /** SimpleStrategy: the next nodes clockwise, whatever the topology. */
    boolean successor() {
        return dc.isEmpty();
    }
}
