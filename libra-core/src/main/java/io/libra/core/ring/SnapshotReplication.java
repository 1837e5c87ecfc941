package io.libra.core.ring;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The replication a saved Cassandra snapshot shows, for the offline tools: a snapshot carries no
 * topology (formats.md), so they place a range's load as SimpleStrategy does, on its primary and
 * the next distinct nodes clockwise. Each table's factor is the most replicas one of its
 * sub-ranges lists, and every sub-range's replicas are checked to be those nodes: a ring placed
 * otherwise (NetworkTopologyStrategy over racks or data centres) is refused, naming the range,
 * since placing its load by successor would be silently wrong.
 */
final class SnapshotReplication {
    private SnapshotReplication() {
    }

    /**
     * Each table ({@code keyspace.table}) and its replication factor.
     *
     * @throws IllegalArgumentException naming the region or range that does not fit
     */
    static Map<String, Integer> factors(ClusterSnapshot snapshot) {
        Map<String, Set<String>> replicas = new TreeMap<>();
        Map<String, Long> ends = new HashMap<>();
        for (Region r : snapshot.regions()) {
            if (r.rangeId() == null) {
                throw new IllegalArgumentException("regions: region " + r.id() + " has no range (not a Cassandra snapshot)");
            }
            String key = r.table() + "\u0000" + r.rangeId();
            replicas.computeIfAbsent(key, k -> new TreeSet<>()).add(r.node());
            ends.putIfAbsent(key, SnapshotRing.endToken(r));
        }
        Map<String, List<Long>> tokens = SnapshotRing.allTokens(snapshot);
        Map<String, Integer> out = new HashMap<>();
        replicas.forEach((key, nodes) -> {
            RingTopology simple = new RingTopology(Map.of(), Map.of("", RingTopology.Replication.simple(nodes.size())));
            Set<String> expected = new TreeSet<>(simple.replicas("", tokens, ends.get(key)));
            String table = key.substring(0, key.indexOf('\u0000'));
            if (!expected.equals(nodes)) {
                throw new IllegalArgumentException("regions: range " + key.substring(key.indexOf('\u0000') + 1) + " of "
                        + table + " is on " + nodes + ", not on " + expected + " where SimpleStrategy places"
                        + " it; a ring placed by NetworkTopologyStrategy over racks or data centres needs its topology,"
                        + " which only the live sidecar reads");
            }
            out.merge(table, nodes.size(), Math::max);
        });
        return out;
    }
}
