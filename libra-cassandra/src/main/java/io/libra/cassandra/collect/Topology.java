package io.libra.cassandra.collect;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the ring against what Libra's ring model assumes, from the ring itself: every member is
 * configured, and in every keyspace a range's replicas are its owner and the next RF-1 nodes
 * clockwise (true for SimpleStrategy, and for NetworkTopologyStrategy in one DC with one rack;
 * not with several racks or DCs, where planning is refused with one line).
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
