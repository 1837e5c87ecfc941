package io.libra.core.ring;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * A Cassandra snapshot ({@code libra.snapshot/v1}, one region per table, sub-range and replica)
 * read back as the single-token ring it describes: the one place where a snapshot's tokens and
 * replica entries become a {@link RingLoad}, for the sidecar's planner, the add-node advisor and
 * the CLI's check of a {@code moveToken} plan alike.
 */
public final class SnapshotRing {
    private SnapshotRing() {
    }

    /**
     * The ring with per-replica loads from {@code model}, replication factors read from the
     * snapshot itself (a table's replicas per sub-range).
     *
     * @throws IllegalArgumentException naming the field when the snapshot is not a single-token Cassandra ring
     */
    public static RingLoad of(ClusterSnapshot snapshot, LoadModel model) {
        Map<String, Long> tokens = tokens(snapshot);
        return of(tokens, model, SnapshotReplication.factors(snapshot));
    }

    /** As {@link #of(ClusterSnapshot, LoadModel)}, with each table's replication factor given (the sidecar knows it). */
    public static RingLoad of(ClusterSnapshot snapshot, LoadModel model, Map<String, Integer> rfOfTable) {
        return of(tokens(snapshot), model, rfOfTable);
    }

    /**
     * As {@link #of(ClusterSnapshot, LoadModel)}, each table ({@code keyspace.table}) placed by its
     * keyspace's replication in {@code topology}: with NetworkTopologyStrategy a region counts
     * toward its node's data centre, whose replicas share that data centre's load of the range.
     *
     * @throws IllegalArgumentException naming the table or node the topology does not cover
     */
    public static RingLoad of(ClusterSnapshot snapshot, LoadModel model, RingTopology topology) {
        return of(tokens(snapshot), model, topology);
    }

    static RingLoad of(Map<String, Long> tokens, LoadModel model, RingTopology topology) {
        return of(tokens, model, placed(topology), replicas(topology, tokens.keySet()), topology.nodes());
    }

    /**
     * A vnode ring (each node any number of tokens, as the snapshot's {@code ring} lists them),
     * each table placed by its keyspace's replication in {@code topology}: what the add-node
     * advisor plans on there ({@link VnodeAdvisor}).
     *
     * @throws IllegalArgumentException naming the field the snapshot or topology lacks
     */
    public static VnodeRing vnodes(ClusterSnapshot snapshot, LoadModel model, RingTopology topology) {
        Map<String, List<Long>> tokens = allTokens(snapshot);
        List<Long> all = new ArrayList<>();
        tokens.values().forEach(all::addAll);
        List<RingSegment> segments = segments(all, model, placed(topology), replicas(topology, tokens.keySet()));
        List<VnodeRing.Member> members = new ArrayList<>();
        tokens.forEach((id, ts) -> {
            int j = model.nodeIndex(id);
            members.add(new VnodeRing.Member(id, ts, model.base(j, Dimension.CPU), model.base(j, Dimension.DISK)));
        });
        return new VnodeRing(members, segments, topology.nodes());
    }

    /**
     * As {@link #vnodes(ClusterSnapshot, LoadModel, RingTopology)} for a saved snapshot, which carries
     * no topology: each keyspace placed by SimpleStrategy with the replication factor its sub-ranges
     * show (the most replicas any of its tables lists for one sub-range).
     */
    public static VnodeRing vnodes(ClusterSnapshot snapshot, LoadModel model) {
        Map<String, Integer> rf = new TreeMap<>();
        SnapshotReplication.factors(snapshot).forEach((table, n) -> rf.merge(keyspace(table), n, Math::max));
        Map<String, RingTopology.Replication> keyspaces = new TreeMap<>();
        rf.forEach((ks, n) -> keyspaces.put(ks, RingTopology.Replication.simple(n)));
        return vnodes(snapshot, model, new RingTopology(Map.of(), keyspaces));
    }

    /** "ks.table" -> "ks". */
    private static String keyspace(String table) {
        int dot = table.indexOf('.');
        return dot < 0 ? table : table.substring(0, dot);
    }

    /** A region's replica group: its keyspace's replication, and with NetworkTopologyStrategy its node's data centre. */
    private static Function<RegionLoad, ReplicaGroup> placed(RingTopology topology) {
        return r -> {
            String table = r.region().table();
            String ks = keyspace(table);
            RingTopology.Replication rep = topology.keyspaces().get(ks);
            if (rep == null) {
                throw new IllegalArgumentException("regions: table " + table + ": keyspace " + ks + " has no replication");
            }
            if (rep.simple()) {
                return ReplicaGroup.simple(rep.rfByDc().get(""));
            }
            if (!rep.modelled()) {
                throw new IllegalArgumentException("regions: table " + table + ": keyspace " + ks + "'s " + rep.strategy()
                        + " is not modelled");
            }
            String dc = placeOf(topology, r.region().node()).dc();
            if (rep.rfByDc().getOrDefault(dc, 0) < 1) {
                throw new IllegalArgumentException("regions: region " + r.region().id() + " is on " + r.region().node()
                        + " in data centre " + dc + ", where keyspace " + ks + " keeps no replica");
            }
            return new ReplicaGroup(rep, dc);
        };
    }

    /** A group's replicas of a range: its factor, capped at the nodes there are (in its data centre). */
    private static ToIntFunction<ReplicaGroup> replicas(RingTopology topology, java.util.Set<String> nodes) {
        Map<ReplicaGroup, Integer> known = new HashMap<>(); // a group's count is the same for every range
        return g -> known.computeIfAbsent(g, x -> {
            if (!x.dc().isEmpty()) { // places are needed, and read, only where a data centre keeps the replicas
                nodes.forEach(id -> placeOf(topology, id));
            }
            return topology.replicas(x, nodes);
        });
    }

    private static RingTopology.Place placeOf(RingTopology topology, String node) {
        RingTopology.Place p = topology.nodes().get(node);
        if (p == null) {
            throw new IllegalArgumentException("ring." + node + ": no data centre and rack known");
        }
        return p;
    }

    static RingLoad of(Map<String, Long> tokens, LoadModel model, Map<String, Integer> rfOfTable) {
        return of(tokens, model, r -> {
            Integer rf = rfOfTable.get(r.region().table());
            if (rf == null) {
                throw new IllegalArgumentException("regions: table " + r.region().table() + " has no replication factor");
            }
            return ReplicaGroup.simple(rf);
        }, g -> Math.min(g.factor(), tokens.size()), Map.of());
    }

    private static RingLoad of(Map<String, Long> tokens, LoadModel model, Function<RegionLoad, ReplicaGroup> groupOf,
                               ToIntFunction<ReplicaGroup> replicasOf, Map<String, RingTopology.Place> places) {
        List<RingSegment> segments = segments(tokens.values(), model, groupOf, replicasOf);
        List<RingNode> nodes = new ArrayList<>();
        tokens.forEach((id, t) -> nodes.add(new RingNode(id, t, 0, 0, 1, 1)));
        RingLoad arcs = new RingLoad(nodes, segments, places);
        // each node's base: what it measures beyond (or short of) its replicas' share of its ranges
        Map<String, RingNodeLoad> onArcs = new HashMap<>();
        RingPlanner.loads(arcs).forEach(l -> onArcs.put(l.node(), l));
        List<RingNode> based = new ArrayList<>();
        for (RingNode n : arcs.nodes()) {
            int j = model.nodeIndex(n.id());
            RingNodeLoad l = onArcs.get(n.id());
            based.add(new RingNode(n.id(), n.token(), model.load(j, Dimension.CPU) - l.cpu(),
                    model.load(j, Dimension.DISK) - l.disk(), capacity(model, j, Dimension.CPU),
                    capacity(model, j, Dimension.DISK)));
        }
        return new RingLoad(based, segments, places);
    }

    /** Node j's capacity in d as the snapshot declares it, 1 on a cluster that declares none (equal nodes). */
    private static double capacity(LoadModel model, int j, Dimension d) {
        return model.isHeterogeneous() ? model.nodes().get(j).capacity().of(d) : 1;
    }

    /** Per segment and replica group, the group's load of the range averaged over its replicas. */
    private static List<RingSegment> segments(java.util.Collection<Long> tokens, LoadModel model,
                                              Function<RegionLoad, ReplicaGroup> groupOf,
                                              ToIntFunction<ReplicaGroup> replicasOf) {
        TreeMap<Long, Map<ReplicaGroup, double[]>> bySegment = new TreeMap<>();
        tokens.forEach(t -> bySegment.put(t, new TreeMap<>(ReplicaGroup.ORDER)));
        java.util.NavigableSet<Long> ring = new java.util.TreeSet<>(tokens);
        for (RegionLoad r : model.regions()) {
            withinOneRange(r.region(), ring);
            ReplicaGroup g = groupOf.apply(r);
            double replicas = replicasOf.applyAsInt(g);
            double[] acc = bySegment.computeIfAbsent(endToken(r.region()), x -> new TreeMap<>(ReplicaGroup.ORDER))
                    .computeIfAbsent(g, x -> new double[3]);
            acc[0] += r.cpu() / replicas;
            acc[1] += r.disk() / replicas;
            acc[2] += r.region().sizeBytes() / replicas;
        }
        List<RingSegment> segments = new ArrayList<>();
        bySegment.forEach((end, groups) -> {
            List<ReplicaLoad> loads = new ArrayList<>();
            groups.forEach((g, acc) -> loads.add(new ReplicaLoad(g, acc[0], acc[1], acc[2])));
            segments.add(new RingSegment(end, loads));
        });
        return segments;
    }

    /**
     * A model with each node's ring load as its whole (base) load: the per-node view of a ring state
     * (a plan's predicted one), for reports and for the forecast the next window checks.
     */
    public static LoadModel perNode(List<Node> nodes, List<RingNodeLoad> loads) {
        Map<String, RingNodeLoad> byId = new HashMap<>();
        loads.forEach(l -> byId.put(l.node(), l));
        double[] cpu = nodes.stream().mapToDouble(n -> byId.get(n.id()).cpu()).toArray();
        double[] disk = nodes.stream().mapToDouble(n -> byId.get(n.id()).disk()).toArray();
        return new LoadModel(nodes, List.of(), cpu, disk);
    }

    /**
     * Each node's single token, parsed from the snapshot's {@code ring}.
     *
     * @throws IllegalArgumentException when the snapshot has no ring, a node is missing from it, or has several tokens
     */
    public static Map<String, Long> tokens(ClusterSnapshot snapshot) {
        Map<String, Long> out = new TreeMap<>();
        allTokens(snapshot).forEach((id, ts) -> {
            if (ts.size() > 1) {
                throw new IllegalArgumentException("ring." + id + ": " + ts.size() + " tokens (a vnode ring); only "
                        + "single-token rings are modelled");
            }
            out.put(id, ts.get(0));
        });
        return out;
    }

    /**
     * Each node's tokens, parsed from the snapshot's {@code ring}.
     *
     * @throws IllegalArgumentException when the snapshot has no ring, or a node is missing from it
     */
    public static Map<String, List<Long>> allTokens(ClusterSnapshot snapshot) {
        if (snapshot.ring().isEmpty()) {
            throw new IllegalArgumentException("ring: the snapshot lists no tokens (a Cassandra sidecar snapshot is needed)");
        }
        Map<String, List<Long>> out = new TreeMap<>();
        snapshot.nodes().forEach(node -> {
            List<String> ts = snapshot.ring().get(node.id());
            String at = "ring." + node.id();
            if (ts == null || ts.isEmpty()) {
                throw new IllegalArgumentException(at + ": node has no token");
            }
            List<Long> parsed = new ArrayList<>();
            for (String t : ts) {
                try {
                    parsed.add(Tokens.fromKey(t));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(at + ": " + e.getMessage());
                }
            }
            out.put(node.id(), parsed);
        });
        return out;
    }

    /** A region lies within one token's range: no token of the ring falls inside it, else its load's owner is unknown. */
    private static void withinOneRange(Region r, java.util.NavigableSet<Long> ring) {
        String start = r.range().startKey();
        long after;
        try {
            after = start.isEmpty() ? Long.MIN_VALUE : Tokens.fromKey(start) - 1;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("regions: region " + r.id() + " startKey: " + e.getMessage());
        }
        Long inside = ring.higher(after);
        if (inside != null && inside < endToken(r)) {
            throw new IllegalArgumentException("regions: region " + r.id() + " crosses token " + Tokens.toKey(inside)
                    + " of the ring; each region must lie within one token's range");
        }
    }

    /**
     * The token closing a region's key range: keys are token+1 (formats.md), the empty end key
     * closes at the ring's last token. A sub-range that wraps is written as two regions, so each
     * region lies within one segment.
     */
    static long endToken(Region r) {
        String end = r.range().endKey();
        try {
            return end.isEmpty() ? Long.MAX_VALUE : Tokens.fromKey(end) - 1;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("regions: region " + r.id() + " endKey: " + e.getMessage());
        }
    }
}
