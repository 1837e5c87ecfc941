package io.libra.core.ring;

/**
 * A single-token node. Its base load is what no segment explains (gossip, GC, compaction
 * of system tables) and never moves: from a window, what the node measures beyond its replicas'
 * even share of its ranges, which is negative for a node that serves less than that share (the
 * replicas of a range do not serve it evenly), so that the ring's node totals are the measured
 * ones. Capacities weigh its share of the total (1 and 1 on a homogeneous ring).
 */
public record RingNode(String id, long token, double baseCpu, double baseDisk, double cpuCapacity,
                       double diskCapacity) {
    public RingNode {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("node.id: must be a non-empty string");
        }
        ReplicaLoad.finite("baseCpu", baseCpu);
        ReplicaLoad.finite("baseDisk", baseDisk);
        if (!(cpuCapacity > 0) || !(diskCapacity > 0)) {
            throw new IllegalArgumentException("node " + id + ": capacities must be > 0");
        }
    }

    public RingNode(String id, long token) {
        this(id, token, 0, 0, 1, 1);
    }

    public String tokenKey() {
        return Tokens.toKey(token);
    }
}
