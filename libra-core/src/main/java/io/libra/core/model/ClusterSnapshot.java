package io.libra.core.model;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One window of a cluster: what the OS measured per node and the software counters per
 * region. Mirrors {@code libra.snapshot/v1}.
 *
 * @param replication Cassandra replication factor, or 0 when not applicable
 * @param ring        Cassandra: tokens per node id; empty otherwise
 */
public record ClusterSnapshot(String store, Instant capturedAt, double windowSeconds, List<Node> nodes,
                              List<Region> regions, int replication, Map<String, List<String>> ring) {
    public ClusterSnapshot {
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes: must not be empty");
        }
        Checks.positive("windowSeconds", windowSeconds);
        nodes = List.copyOf(nodes);
        regions = List.copyOf(regions);
        ring = ring == null ? Map.of() : Map.copyOf(ring);
        checkReferences(nodes, regions);
    }

    public ClusterSnapshot(String store, Instant capturedAt, double windowSeconds, List<Node> nodes, List<Region> regions) {
        this(store, capturedAt, windowSeconds, nodes, regions, 0, Map.of());
    }

    private static void checkReferences(List<Node> nodes, List<Region> regions) {
        Map<String, Node> byId = new HashMap<>();
        for (Node n : nodes) {
            if (byId.put(n.id(), n) != null) {
                throw new IllegalArgumentException("nodes: duplicate id " + n.id());
            }
        }
        Map<String, Boolean> seen = new HashMap<>(regions.size() * 2);
        for (Region r : regions) {
            if (!byId.containsKey(r.node())) {
                throw new IllegalArgumentException("region " + r.id() + ": unknown node " + r.node());
            }
            if (seen.put(r.id(), Boolean.TRUE) != null) {
                throw new IllegalArgumentException("regions: duplicate id " + r.id());
            }
        }
    }

    /** True when every node declares a capacity (a heterogeneous cluster). */
    public boolean hasCapacities() {
        return nodes.stream().allMatch(n -> n.capacity() != null);
    }

    public Optional<Node> node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    /** The ids of its nodes. */
    public Set<String> nodeIds() {
        return nodes.stream().map(Node::id).collect(Collectors.toUnmodifiableSet());
    }

    /** Region id to the node it sits on: the layout two windows compare to tell whether a region moved. */
    public Map<String, String> placement() {
        Map<String, String> out = new HashMap<>(regions.size() * 2);
        regions.forEach(r -> out.put(r.id(), r.node()));
        return out;
    }

    /**
     * The nodes of the regions that share keys with {@code r}, a region of another window: where its
     * daughters sit when it was split since, or the region it went into when merged.
     */
    public Set<String> nodesSharingKeysWith(Region r) {
        return regions.stream().filter(x -> x.sharesKeysWith(r)).map(Region::node)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    public ClusterSnapshot withState(List<Node> newNodes, List<Region> newRegions) {
        return new ClusterSnapshot(store, capturedAt, windowSeconds, newNodes, newRegions, replication, ring);
    }
}
