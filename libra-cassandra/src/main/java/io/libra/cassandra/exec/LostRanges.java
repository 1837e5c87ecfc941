package io.libra.cassandra.exec;

import io.libra.cassandra.collect.KeyspaceReplication;
import io.libra.cassandra.jmx.RingOps;
import io.libra.core.ring.RingTopology;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which nodes a token move makes lose ranges (they need cleanup) and gain ranges (they receive
 * streams), per keyspace the ring replicates: core's {@link RingTopology#losing} and
 * {@link RingTopology#gaining} on the ring before and after the move, with the replication the
 * nodes report and the data centre and rack their snitches give, so NetworkTopologyStrategy's
 * racks and data centres count as Cassandra counts them. A keyspace core cannot place (a
 * transient factor, another strategy) counts every node: cleaning a node that lost nothing only
 * costs time, missing one leaves stale data behind.
 *
 * @param topology  the nodes' places and the replication of each keyspace core can place
 * @param keyspaces every keyspace the ring replicates
 */
record LostRanges(RingTopology topology, List<String> keyspaces) {
    LostRanges {
        keyspaces = List.copyOf(keyspaces);
    }

    /** Every node's place, and the replication of each keyspace the ring replicates as {@code any} node reports it. */
    static LostRanges read(Collection<RingOps> nodes, RingOps any) throws IOException {
        Map<String, RingTopology.Place> places = new HashMap<>();
        for (RingOps n : nodes) {
            places.put(n.id(), new RingTopology.Place(n.datacenter(), n.rack()));
        }
        List<String> keyspaces = any.replicatedKeyspaces();
        Map<String, RingTopology.Replication> replication = new HashMap<>();
        for (String ks : keyspaces) {
            KeyspaceReplication.parse(ks, any.replicationInfo(ks)).toCore().ifPresent(r -> replication.put(ks, r));
        }
        return new LostRanges(new RingTopology(places, replication), keyspaces);
    }

    /** Node → the keyspaces in which it holds ranges it no longer owns once {@code node} is at {@code to}. */
    Map<String, List<String>> losing(Map<String, Long> before, String node, long to) {
        Map<String, List<String>> out = new TreeMap<>();
        for (String ks : keyspaces) {
            changed(ks, before, node, to, true).forEach(n -> out.computeIfAbsent(n, x -> new ArrayList<>()).add(ks));
        }
        return out;
    }

    /** Nodes that gain ranges of some keyspace once {@code node} is at {@code to}: they receive streams. */
    Set<String> gaining(Map<String, Long> before, String node, long to) {
        Set<String> out = new TreeSet<>();
        keyspaces.forEach(ks -> out.addAll(changed(ks, before, node, to, false)));
        return out;
    }

    private Set<String> changed(String ks, Map<String, Long> before, String node, long to, boolean losing) {
        RingTopology.Replication r = topology.keyspaces().get(ks);
        if (r == null || !r.modelled()) {
            return new TreeSet<>(before.keySet());
        }
        Map<String, List<Long>> was = new HashMap<>();
        before.forEach((id, t) -> was.put(id, List.of(t)));
        Map<String, List<Long>> now = new HashMap<>(was);
        now.put(node, List.of(to));
        return losing ? topology.losing(ks, was, now) : topology.gaining(ks, was, now);
    }
}
