package io.libra.cassandra.collect;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a window says of skew beyond the nodes' totals, for /status on any ring (on a vnode ring,
 * where nothing is planned, it is what an operator acts on): each table's spread over the nodes,
 * and the hottest sampled partitions with the replicas Cassandra places them on.
 */
public final class WindowReport {
    private WindowReport() {
    }

    /**
     * A table's spread over the nodes that are up.
     *
     * @param opsMaxOverMean   Max/Mean of the reads and writes each node served for it
     * @param bytesMaxOverMean Max/Mean of the live bytes each node holds of it
     * @param hottestNode      the node serving the most of its requests
     */
    public record TableSkew(String table, int nodes, double opsMaxOverMean, double bytesMaxOverMean, String hottestNode) {
    }

    /**
     * A sampled partition, its counts (and bytes written) summed over the nodes whose samplers saw it.
     *
     * @param replicas the nodes Cassandra places it on; empty when the keyspace's placement is not modelled
     */
    public record HotPartition(String table, long token, long reads, long writes, long writeBytes,
                               List<String> replicas) {
    }

    /** Every table the nodes that are up report, in name order. */
    public static List<TableSkew> tableSkew(Window w) {
        java.util.Set<String> up = new java.util.HashSet<>();
        w.nodes().stream().filter(Window.NodeStat::up).forEach(n -> up.add(n.id()));
        Map<String, List<Window.TableStat>> byTable = new TreeMap<>();
        w.tables().stream().filter(t -> up.contains(t.node()))
                .forEach(t -> byTable.computeIfAbsent(t.keyspace() + "." + t.table(), k -> new ArrayList<>()).add(t));
        List<TableSkew> out = new ArrayList<>();
        byTable.forEach((table, stats) -> {
            Window.TableStat hottest = stats.stream().max(Comparator.comparingDouble(WindowReport::ops)).orElseThrow();
            out.add(new TableSkew(table, stats.size(), maxOverMean(stats.stream().mapToDouble(WindowReport::ops).toArray()),
                    maxOverMean(stats.stream().mapToDouble(Window.TableStat::liveBytes).toArray()), hottest.node()));
        });
        return out;
    }

    /** The {@code top} partitions the samplers counted most requests for, hottest first. */
    public static List<HotPartition> hotPartitions(Window w, int top) {
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Window.KeySample> first = new LinkedHashMap<>();
        for (Window.KeySample s : w.samples()) {
            String key = s.keyspace() + "." + s.table() + "@" + s.token();
            long[] c = counts.computeIfAbsent(key, k -> new long[3]);
            c[0] += s.reads();
            c[1] += s.writes();
            c[2] += s.writeBytes();
            first.putIfAbsent(key, s);
        }
        List<String> keys = new ArrayList<>(counts.keySet());
        keys.sort(Comparator.comparingLong((String k) -> -(counts.get(k)[0] + counts.get(k)[1])).thenComparing(k -> k));
        List<HotPartition> out = new ArrayList<>();
        for (String k : keys.subList(0, Math.min(top, keys.size()))) {
            Window.KeySample s = first.get(k);
            out.add(new HotPartition(s.keyspace() + "." + s.table(), s.token(), counts.get(k)[0], counts.get(k)[1],
                    counts.get(k)[2], replicas(w, s.keyspace(), s.token())));
        }
        return out;
    }

    /** Cassandra's replicas of the token in the keyspace; none when a node's place or the keyspace's placement is unknown. */
    private static List<String> replicas(Window w, String keyspace, long token) {
        List<Window.NodeStat> nodes = w.nodes().stream().filter(n -> !n.tokens().isEmpty()).toList();
        List<KeyspaceReplication> ks = w.keyspaces().stream().filter(k -> k.keyspace().equals(keyspace)).toList();
        if (ks.isEmpty() || ks.get(0).toCore().isEmpty() || !Topology.unmodelled(ks, nodes).isEmpty()) {
            return List.of();
        }
        Map<String, List<Long>> tokens = new TreeMap<>();
        nodes.forEach(n -> tokens.put(n.id(), n.tokens()));
        try {
            return Topology.topology(ks, nodes).replicas(keyspace, tokens, token);
        } catch (IllegalArgumentException e) { // a node that did not say its data centre and rack
            return List.of();
        }
    }

    private static double ops(Window.TableStat t) {
        return t.readOps() + t.writeOps();
    }

    /** Max/Mean of the values; 1 when they are all 0. */
    public static double maxOverMean(double[] v) {
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        return mean > 0 ? java.util.Arrays.stream(v).max().orElse(0) / mean : 1;
    }
}
