package io.libra.cassandra.collect;

import io.libra.core.ring.RingTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks the ring against what Libra's ring model places, from the ring itself: every member is
 * configured; each keyspace's replication, as its nodes report it, is one core's
 * {@link RingTopology} places (SimpleStrategy, and NetworkTopologyStrategy with its racks and
 * data centres); and the replicas the ring lists are the ones that placement gives. Anything
 * else is refused with one line naming the keyspace and the reason.
 */
final class Topology {
    private Topology() {
    }

    /**
     * @param tokenToEndpoint  StorageService.TokenToEndpointMap (signed decimal token -> address)
     * @param configuredHosts  the configured instances' addresses
     * @return the ring members that are not configured, one line each (empty when none)
     */
    static List<String> problems(Map<String, String> tokenToEndpoint, Set<String> configuredHosts) {
        List<String> out = new ArrayList<>();
        for (String m : new TreeSet<>(tokenToEndpoint.values())) {
            if (!configuredHosts.contains(bare(m))) {
                out.add("ring member " + bare(m) + " is not configured (add it to instances): its load would be unseen");
            }
        }
        return out;
    }

    /**
     * Keyspaces whose ranges are not where their replication puts them on this single-token ring
     * (a schema change in flight), one line each: the replicas each range lists
     * ({@code getRangeToEndpointMap}) against {@link RingTopology#replicas}. Empty on a vnode ring
     * (observed only) and for keyspaces {@link #unmodelled} names.
     *
     * @param nodes the window's nodes, all up with their places
     */
    static List<String> misplaced(List<KeyspaceReplication> keyspaces, List<Window.NodeStat> nodes,
                                  Map<String, String> tokenToEndpoint, Map<String, Map<List<String>, List<String>>> replicas) {
        Map<String, String> idOfHost = new HashMap<>();
        nodes.forEach(n -> idOfHost.put(n.host(), n.id()));
        Map<String, List<Long>> tokensOfNode = new HashMap<>();
        for (Map.Entry<String, String> e : tokenToEndpoint.entrySet()) {
            String id = idOfHost.get(bare(e.getValue()));
            if (id == null || tokensOfNode.put(id, List.of(Long.parseLong(e.getKey()))) != null) {
                return List.of(); // an unconfigured member (named by problems), or vnodes: nothing is planned anyway
            }
        }
        RingTopology topology = topology(keyspaces, nodes);
        List<String> out = new ArrayList<>();
        for (KeyspaceReplication k : keyspaces) {
            if (!unmodelled(List.of(k), nodes).isEmpty()) {
                continue;
            }
            for (Map.Entry<List<String>, List<String>> r : replicas.getOrDefault(k.keyspace(), Map.of()).entrySet()) {
                long end = Long.parseLong(r.getKey().get(1));
                Set<String> expected = new TreeSet<>(topology.replicas(k.keyspace(), tokensOfNode, end));
                Set<String> actual = new TreeSet<>();
                r.getValue().forEach(e -> actual.add(idOfHost.getOrDefault(bare(e), bare(e))));
                if (!expected.equals(actual)) {
                    out.add("keyspace " + k.keyspace() + ": range ending at " + end + " is on " + actual + ", not "
                            + expected + " as " + k.describe() + " places it (a schema change in flight?); nothing is planned");
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Keyspaces whose replication the ring model does not place, one line each: core's
     * {@link RingTopology#unplanned} (a strategy other than SimpleStrategy and
     * NetworkTopologyStrategy), plus factors it cannot hold (transient replication, "3/1").
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
        out.addAll(topology(keyspaces, nodes).unplanned());
        return out;
    }

    /**
     * Replicas a range has by the keyspace's replication on the ring of {@code nodes} (SimpleStrategy:
     * its factor, capped at the ring's size; NetworkTopologyStrategy: per data centre its factor, capped
     * at the nodes there), or -1 when the model does not place them.
     */
    static int declaredReplicas(KeyspaceReplication k, List<Window.NodeStat> nodes) {
        if (!unmodelled(List.of(k), nodes).isEmpty()) {
            return -1;
        }
        return topology(List.of(k), nodes).replicas(k.toCore().orElseThrow(), nodes.stream().map(Window.NodeStat::id).toList());
    }

    /** The ring's topology as core models it (factors it cannot hold are left out: see {@link #unmodelled}). */
    static RingTopology topology(List<KeyspaceReplication> keyspaces, List<Window.NodeStat> nodes) {
        Map<String, RingTopology.Place> places = new HashMap<>();
        for (Window.NodeStat n : nodes) {
            places.put(n.id(), new RingTopology.Place(n.datacenter(), n.rack()));
        }
        Map<String, RingTopology.Replication> replication = new HashMap<>();
        keyspaces.forEach(k -> k.toCore().ifPresent(r -> replication.put(k.keyspace(), r)));
        return new RingTopology(places, replication);
    }

    /** "/127.0.0.1:7000" -> "127.0.0.1". */
    static String bare(String endpoint) {
        String e = endpoint.startsWith("/") ? endpoint.substring(1) : endpoint;
        int colon = e.lastIndexOf(':');
        return colon > 0 && e.indexOf(':') == colon ? e.substring(0, colon) : e;
    }
}
