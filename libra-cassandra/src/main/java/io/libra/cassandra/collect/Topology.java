package io.libra.cassandra.collect;

import io.libra.core.ring.RingTopology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the ring against what Libra's ring model assumes, from the ring itself: every member is
 * configured; each keyspace's replication, as its nodes report it, places a range's replicas on
 * its owner and the next RF-1 nodes clockwise (SimpleStrategy, and NetworkTopologyStrategy on a
 * ring of one data centre where racks cannot change the choice); and the replicas the ring lists
 * are indeed those. Anything else is refused with one line naming the keyspace and the reason.
 */
final class Topology {
    private Topology() {
    }

    /**
     * @param tokenToEndpoint  StorageService.TokenToEndpointMap (signed decimal token -> address)
     * @param replicas         per keyspace, getRangeToEndpointMap: [start, end] -> replica addresses
     * @param configuredHosts  the configured instances' addresses
     * @return why the model does not fit (empty when it does)
     */
    static List<String> problems(Map<String, String> tokenToEndpoint, Map<String, Map<List<String>, List<String>>> replicas,
                                 Set<String> configuredHosts) {
        List<String> out = new ArrayList<>();
        Set<String> members = new HashSet<>(tokenToEndpoint.values());
        for (String m : new java.util.TreeSet<>(members)) {
            if (!configuredHosts.contains(bare(m))) {
                out.add("ring member " + bare(m) + " is not configured (add it to instances): its load would be unseen");
            }
        }
        if (tokenToEndpoint.size() != members.size()) {
            return out; // vnodes: observed only, nothing is planned whatever the placement
        }
        TreeMap<Long, String> ring = new TreeMap<>();
        tokenToEndpoint.forEach((t, e) -> ring.put(Long.parseLong(t), bare(e)));
        List<String> order = new ArrayList<>(ring.values());
        for (Map.Entry<String, Map<List<String>, List<String>>> ks : new TreeMap<>(replicas).entrySet()) {
            String mismatch = mismatch(ring, order, ks.getValue());
            if (mismatch != null) {
                out.add("keyspace " + ks.getKey() + ": " + mismatch + " — replicas are not the ring's next nodes "
                        + "(NetworkTopologyStrategy with several racks or data centres?); the ring model does not cover it, "
                        + "so nothing is planned");
            }
        }
        return out;
    }

    /**
     * Keyspaces whose replication the ring model does not place, one line each: core's
     * {@link RingTopology#unmodelled} on the replication the nodes report and the places their
     * snitches give, plus factors it cannot hold (transient replication, "3/1").
     *
     * @param nodes the window's nodes, all up (each with its data centre and rack)
     */
    static List<String> unmodelled(List<KeyspaceReplication> keyspaces, List<Window.NodeStat> nodes) {
        List<String> out = new ArrayList<>();
        for (KeyspaceReplication k : keyspaces) {
            if (!k.transientOrOdd().isEmpty()) {
                out.add("keyspace " + k.keyspace() + ": " + k.describe() + " has transient or unreadable factors "
                        + k.transientOrOdd() + "; not modelled");
            }
        }
        out.addAll(topology(keyspaces, nodes).unmodelled());
        return out;
    }

    /**
     * Replicas a range has by the keyspace's replication on the ring of {@code nodes}, or -1 when
     * the model does not place them.
     */
    static int declaredReplicas(KeyspaceReplication k, List<Window.NodeStat> nodes) {
        if (!unmodelled(List.of(k), nodes).isEmpty()) {
            return -1;
        }
        return Math.min(topology(List.of(k), nodes).replicationFactor(k.keyspace()), nodes.size());
    }

    /** The ring's topology as core models it (factors it cannot hold are left out: see {@link #unmodelled}). */
    static RingTopology topology(List<KeyspaceReplication> keyspaces, List<Window.NodeStat> nodes) {
        Map<String, RingTopology.Place> places = new java.util.HashMap<>();
        for (Window.NodeStat n : nodes) {
            places.put(n.id(), new RingTopology.Place(n.datacenter(), n.rack()));
        }
        Map<String, RingTopology.Replication> replication = new java.util.HashMap<>();
        keyspaces.forEach(k -> k.toCore().ifPresent(r -> replication.put(k.keyspace(), r)));
        return new RingTopology(places, replication);
    }

    private static String mismatch(TreeMap<Long, String> ring, List<String> order, Map<List<String>, List<String>> ranges) {
        int n = order.size();
        for (Map.Entry<List<String>, List<String>> r : ranges.entrySet()) {
            long end = Long.parseLong(r.getKey().get(1));
            Map.Entry<Long, String> owner = ring.ceilingEntry(end);
            if (owner == null) {
                owner = ring.firstEntry();
            }
            int k = order.indexOf(owner.getValue());
            int rf = r.getValue().size();
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < Math.min(rf, n); i++) {
                expected.add(order.get((k + i) % n));
            }
            Set<String> actual = new HashSet<>();
            r.getValue().forEach(e -> actual.add(bare(e)));
            if (!expected.equals(actual)) {
                return "range ending at " + end + " is on " + new java.util.TreeSet<>(actual) + ", not "
                        + new java.util.TreeSet<>(expected);
            }
        }
        return null;
    }

    /** "/127.0.0.1:7000" -> "127.0.0.1". */
    static String bare(String endpoint) {
        String e = endpoint.startsWith("/") ? endpoint.substring(1) : endpoint;
        int colon = e.lastIndexOf(':');
        return colon > 0 && e.indexOf(':') == colon ? e.substring(0, colon) : e;
    }
}
