package io.libra.cassandra.collect;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.Planner;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.ring.RingTopology;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.ring.Tokens;
import io.libra.core.ring.VnodeRing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Places a window's load on the ring. Each node's primary arc is cut into equal sub-ranges;
 * a node's requests for a table are spread over its local sub-ranges (those its keyspace's
 * replication places a replica of on it, racks and data centres included, by core's
 * RingTopology) in proportion to the sampled partitions that fall in each,
 * scaled to the table's total, the unsampled remainder spread by token width. Core's metric
 * mapping then turns counters into CPU and disk per (sub-range, replica), and the per-replica
 * load of a sub-range is the mean over its replicas, since any node holding it would carry it.
 */
public final class RingModelBuilder {
    private final int subRangesPerArc;
    private final Planner estimator;
    private final Map<String, Double> diskCapacity;

    /**
     * Estimates through core's planner with the paper's fixed mapping under {@code estimation} (one
     * window: nothing to learn from); the planning round learns from the window and its history.
     */
    public RingModelBuilder(int subRangesPerArc, EstimationConfig estimation) {
        this(subRangesPerArc, estimation, Map.of());
    }

    /**
     * @param diskCapacity each node's declared disk bandwidth by id ({@code disk_capacity_bytes_per_sec});
     *                     when it names every node of a window, each node's capacity is that and its cores
     */
    public RingModelBuilder(int subRangesPerArc, EstimationConfig estimation, Map<String, Double> diskCapacity) {
        this.subRangesPerArc = subRangesPerArc;
        this.diskCapacity = Map.copyOf(diskCapacity);
        this.estimator = Planner.builder().estimation(estimation).learning(false).build();
    }

    /** The single-token ring the planner moves tokens on. */
    public RingModel build(Window w) {
        Modelled m = model(w, true);
        return new RingModel(m.snapshot(), m.load(), SnapshotRing.of(m.snapshot(), m.load(), m.topology()), m.subs(),
                m.topology());
    }

    /**
     * A vnode ring's window as the add-node advisor plans on it (each node any number of tokens,
     * placed as on a single-token ring, every token's arc cut into sub-ranges).
     *
     * @throws IllegalStateException when a node is down
     * @throws IllegalArgumentException when a keyspace's replication is not one the ring model places
     */
    public VnodeRing vnodes(Window w) {
        Modelled m = model(w, false);
        return SnapshotRing.vnodes(m.snapshot(), m.load(), m.topology());
    }

    /**
     * The window as a {@code libra.snapshot/v1} document's content, any number of tokens per node:
     * what a vnode ring's sidecar serves, so the offline add-node advice and the CLI can read it.
     *
     * @throws IllegalStateException when a node is down
     */
    public ClusterSnapshot snapshot(Window w) {
        return model(w, false).snapshot();
    }

    /** A window as a snapshot with its load estimate, sub-ranges and topology. */
    private record Modelled(ClusterSnapshot snapshot, LoadModel load, List<RingModel.SubRange> subs,
                            RingTopology topology) {
    }

    private Modelled model(Window w, boolean singleToken) {
        List<Window.NodeStat> ring = w.nodes().stream()
                .filter(s -> s.up() && (singleToken ? s.token() != null : !s.tokens().isEmpty()))
                .sorted(Comparator.comparingLong(s -> s.tokens().get(0))).toList();
        if (ring.size() != w.nodes().size()) {
            throw new IllegalStateException(singleToken ? "every node must be up with a single token to model the ring"
                    : "every node must be up to model the ring");
        }
        List<RingModel.SubRange> subs = subRanges(ring);
        long[] ends = subs.stream().mapToLong(RingModel.SubRange::end).toArray();
        RingTopology topology = Topology.topology(w.keyspaces(), ring);
        Map<String, List<Long>> tokensOfNode = new HashMap<>();
        ring.forEach(s -> tokensOfNode.put(s.id(), s.tokens()));
        Map<String, List<List<String>>> holders = new HashMap<>();
        List<Region> regions = new ArrayList<>();
        for (Window.TableStat t : w.tables()) {
            List<Integer> local = localSubRanges(holders.computeIfAbsent(t.keyspace(),
                    ks -> replicasPerSubRange(topology, ks, tokensOfNode, subs)), t.node());
            double[][] ops = TableSpread.rates(t, local.stream().map(subs::get).toList(), ends, w);
            double width = local.stream().mapToDouble(s -> width(subs.get(s))).sum();
            for (int k = 0; k < local.size(); k++) {
                RingModel.SubRange s = subs.get(local.get(k));
                double size = t.liveBytes() * width(s) / width;
                regions.addAll(regionsOf(t, s, ops[k], size));
            }
        }
        boolean sized = ring.stream().allMatch(s -> diskCapacity.containsKey(s.id()));
        List<Node> nodes = ring.stream().map(s -> {
            int cores = Math.max(1, s.cpuCores());
            return new Node(s.id(), cores, s.cpuUsage(), s.diskBytesPerSec(),
                    sized ? new Capacity(cores, diskCapacity.get(s.id())) : null);
        }).toList();
        Map<String, List<String>> tokens = new TreeMap<>();
        ring.forEach(s -> tokens.put(s.id(), s.tokens().stream().map(Tokens::toKey).toList()));
        int replication = w.tables().stream().mapToInt(Window.TableStat::replicationFactor).max().orElse(1);
        ClusterSnapshot snapshot = new ClusterSnapshot("cassandra", w.end(), w.seconds(), nodes, regions, replication, tokens);
        return new Modelled(snapshot, estimator.estimate(snapshot), subs, topology);
    }

    /**
     * Every token's arc (from the token before it on the ring) cut into equal sub-ranges, in token
     * order: {@code subRangesPerArc} for a node's one token, fewer for each of a vnode's tokens so
     * that a node's arcs together keep about that many (at least one each).
     */
    private List<RingModel.SubRange> subRanges(List<Window.NodeStat> ring) {
        record Owned(long token, String node, String arc, int pieces) {
        }
        List<Owned> owned = new ArrayList<>();
        for (Window.NodeStat s : ring) {
            int k = s.tokens().size();
            for (int t = 0; t < k; t++) {
                owned.add(new Owned(s.tokens().get(t), s.id(), k == 1 ? s.id() : s.id() + "." + t,
                        Math.max(1, subRangesPerArc / k)));
            }
        }
        owned.sort(Comparator.comparingLong(Owned::token));
        List<RingModel.SubRange> out = new ArrayList<>();
        int n = owned.size();
        for (int j = 0; j < n; j++) {
            long pred = owned.get((j - 1 + n) % n).token();
            long tok = owned.get(j).token();
            long span = Tokens.clockwise(pred, tok);
            long prev = pred;
            int pieces = owned.get(j).pieces();
            for (int i = 0; i < pieces; i++) {
                long end = i == pieces - 1 ? tok : Tokens.advance(pred, span, (i + 1.0) / pieces);
                if (end != prev) {
                    out.add(new RingModel.SubRange(owned.get(j).arc() + "." + i, prev, end, owned.get(j).node()));
                }
                prev = end;
            }
        }
        out.sort(Comparator.comparingLong(RingModel.SubRange::end));
        return out;
    }

    /** Each sub-range's replicas of {@code keyspace}, as Cassandra places them (core's RingTopology). */
    private static List<List<String>> replicasPerSubRange(RingTopology topology, String keyspace,
                                                          Map<String, List<Long>> tokensOfNode, List<RingModel.SubRange> subs) {
        return subs.stream().map(s -> topology.replicas(keyspace, tokensOfNode, s.end())).toList();
    }

    /** Indices (into the token-sorted sub-ranges) of the sub-ranges {@code node} holds a replica of. */
    private static List<Integer> localSubRanges(List<List<String>> replicas, String node) {
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < replicas.size(); k++) {
            if (replicas.get(k).contains(node)) {
                out.add(k);
            }
        }
        return out;
    }

    static double width(RingModel.SubRange s) {
        return Tokens.width(Tokens.clockwise(s.start(), s.end()));
    }

    /** Index of the sub-range (start, end] holding a token. */
    static int containing(long[] ends, long token) {
        int i = java.util.Arrays.binarySearch(ends, token);
        if (i >= 0) {
            return i;
        }
        int insert = -i - 1;
        return insert == ends.length ? 0 : insert;
    }

    /** The regions of one (table, sub-range, replica); the sub-range holding the ring's wrap becomes two. */
    private static List<Region> regionsOf(Window.TableStat t, RingModel.SubRange s, double[] ops, double size) {
        String id = t.keyspace() + "." + t.table() + "/" + s.id() + "@" + t.node();
        String startKey = s.start() == Long.MAX_VALUE ? "" : Tokens.toKey(s.start() + 1);
        String endKey = s.end() == Long.MAX_VALUE ? "" : Tokens.toKey(s.end() + 1);
        if (endKey.isEmpty() || startKey.isEmpty() || startKey.compareTo(endKey) < 0) {
            return List.of(region(id, t, new KeyRange(startKey, endKey), s, ops, size, 1));
        }
        double before = width(new RingModel.SubRange("", s.start(), Long.MAX_VALUE, "")) / width(s);
        return List.of(region(id + ".a", t, new KeyRange(startKey, ""), s, ops, size, before),
                region(id + ".b", t, new KeyRange("", endKey), s, ops, size, 1 - before));
    }

    private static Region region(String id, Window.TableStat t, KeyRange range, RingModel.SubRange s, double[] ops,
                                 double size, double f) {
        return new Region(id, t.keyspace() + "." + t.table(), range, t.node(), size * f,
                new RegionCounters(ops[0] * f, ops[1] * f, ops[2] * f, ops[3] * f), List.of(), s.id());
    }
}
