package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;
import java.util.List;

/**
 * The ring cut into slices (each segment into equal pieces) with prefix sums per replica group,
 * so a candidate layout is an array of slice positions and evaluating it costs O(nodes × groups ×
 * runs). A node at position p owns the token at the end of slice p. A token move keeps the nodes'
 * order, and a range's replicas depend on that order alone (who follows its owner clockwise), so
 * which primary arcs each node holds is worked out once, from {@link RingTopology}'s placement,
 * as runs of consecutive owners: a run from owner a+1 to owner b is the arc (p_a, p_b].
 * Immutable.
 */
final class RingGrid {
    final List<RingNode> nodes;
    final int n;
    final int m;
    final long[] end;
    private final List<ReplicaGroup> groups;
    /** Per group and node: pairs (a, b), each the arc (p_a, p_b] of consecutive primary arcs it holds. */
    private final int[][][] runs;
    /** Per group: replicas of a range (the same for every range). */
    private final int[] replicas;
    /** Per group and node j: replicas that change hands when a range passes between j and its successor. */
    private final int[][] handover;
    /** Per group: whether each node holds its own primary arc only. */
    private final boolean[] own;
    private final Slices slices;
    private final LoadPools pools;
    final double[] targetCpu;
    final double[] targetDisk;
    final int[] initial;

    RingGrid(RingLoad ring, int slicesPerSegment) {
        this.nodes = ring.nodes();
        this.n = nodes.size();
        this.slices = new Slices(ring.segments(), slicesPerSegment);
        this.groups = slices.groups;
        int gs = groups.size();
        this.runs = new int[gs][][];
        this.replicas = new int[gs];
        this.handover = new int[gs][];
        this.own = new boolean[gs];
        List<String> ids = nodes.stream().map(RingNode::id).toList();
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int j = 0; j < n; j++) {
            index.put(ids.get(j), j);
        }
        for (int g = 0; g < gs; g++) {
            place(g, ring.places(), ids, index);
        }
        this.m = slices.m;
        this.end = slices.end;
        this.initial = positions();
        this.pools = new LoadPools(ids, groups, ring.places());
        this.targetCpu = targets(Dimension.CPU);
        this.targetDisk = targets(Dimension.DISK);
    }

    private int[] positions() {
        java.util.Map<Long, Integer> at = slices.positions();
        int[] pos = new int[nodes.size()];
        for (int j = 0; j < pos.length; j++) {
            pos[j] = at.get(nodes.get(j).token());
        }
        return pos;
    }

    /**
     * Group g's holders of each primary arc, turned into each node's runs of held arcs. The census
     * is taken once and each walk is read lazily only as far as its holders, so a group costs
     * about n × (nodes read per range), not n².
     */
    private void place(int g, java.util.Map<String, RingTopology.Place> places, List<String> ids,
                       java.util.Map<String, Integer> index) {
        ReplicaGroup group = groups.get(g);
        RingTopology.Census census = RingTopology.Census.of(group, places, ids);
        boolean[][] holds = new boolean[n][n];
        java.util.List<java.util.Set<String>> of = new java.util.ArrayList<>();
        own[g] = true;
        for (int i = 0; i < n; i++) {
            java.util.Set<String> h = RingTopology.holders(group, places, census, clockwise(ids, i)).nodes();
            of.add(h);
            int owner = i;
            h.forEach(id -> holds[index.get(id)][owner] = true);
            own[g] &= h.size() == 1 && h.contains(ids.get(i));
        }
        replicas[g] = of.get(0).size();
        runs[g] = new int[n][];
        handover[g] = new int[n];
        for (int j = 0; j < n; j++) {
            runs[g][j] = runs(holds[j]);
            java.util.Set<String> gained = new java.util.HashSet<>(of.get(j));
            gained.removeAll(of.get((j + 1) % n));
            handover[g][j] = gained.size();
        }
    }

    /** The nodes in ring order from the {@code from}-th, read lazily. */
    private static Iterable<String> clockwise(List<String> ids, int from) {
        return () -> java.util.stream.IntStream.range(0, ids.size()).mapToObj(k -> ids.get((from + k) % ids.size())).iterator();
    }

    /** Runs of consecutive held owners as pairs (a, b): owners a+1 .. b; all owners is one pair with a == b. */
    private static int[] runs(boolean[] held) {
        int n = held.length;
        int start = -1;
        for (int i = 0; i < n && start < 0; i++) {
            if (held[i] && !held[(i - 1 + n) % n]) {
                start = i;
            }
        }
        if (start < 0) {
            return held[0] ? new int[] {0, 0} : new int[0];
        }
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            if (held[i] && !held[(i - 1 + n) % n]) {
                out.add((i - 1 + n) % n);
            }
            if (held[i] && !held[(i + 1) % n]) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Whether every node holds its own primary arc alone, or every range, in each group: then loads are not coupled. */
    boolean uncoupled() {
        for (int g = 0; g < groups.size(); g++) {
            if (!own[g] && !everywhere(g)) {
                return false;
            }
        }
        return true;
    }

    boolean own(int g) {
        return own[g] && !everywhere(g);
    }

    boolean everywhere(int g) {
        return replicas[g] == n;
    }

    int groupCount() {
        return groups.size();
    }

    /** Each node's target: its pool's load shared by capacity, so a data centre is balanced toward its own mean. */
    private double[] targets(Dimension dim) {
        double[] load = new double[n];
        double[] capacity = new double[n];
        for (int j = 0; j < n; j++) {
            load[j] = load(initial, j, dim);
            capacity[j] = capacity(nodes.get(j), dim);
        }
        return pools.targets(load, capacity);
    }

    private static double capacity(RingNode node, Dimension dim) {
        return dim == Dimension.CPU ? node.cpuCapacity() : node.diskCapacity();
    }

    double groupArc(int g, Dimension dim, int from, int to) {
        return slices.arc(g, dim, from, to);
    }

    double[] prefix(int g, Dimension dim) {
        return slices.prefix(g, dim);
    }

    double groupTotal(int g, Dimension dim) {
        return slices.total(g, dim);
    }

    /**
     * Bytes streamed when node j's token moves from one position to another without crossing a
     * neighbour: the slices between them, once per replica that changes hands between j and its
     * successor (one with SimpleStrategy below every node; none in a data centre j is not in,
     * unless j's arc is where that data centre's holders change).
     */
    double movedBytes(int j, int from, int to, boolean clockwise) {
        if (from == to) {
            return 0;
        }
        double bytes = 0;
        for (int g = 0; g < groups.size(); g++) {
            if (handover[g][j] > 0) {
                bytes += handover[g][j] * (clockwise ? slices.bytes(g, from, to) : slices.bytes(g, to, from));
            }
        }
        return bytes;
    }

    /** Load of node j in dimension dim for a layout. */
    double load(int[] pos, int j, Dimension dim) {
        double v = dim == Dimension.CPU ? nodes.get(j).baseCpu() : nodes.get(j).baseDisk();
        for (int g = 0; g < groups.size(); g++) {
            int[] r = runs[g][j];
            for (int i = 0; i < r.length; i += 2) {
                v += groupArc(g, dim, pos[r[i]], pos[r[i + 1]]);
            }
        }
        return v;
    }

    double normalized(int[] pos, int j, Dimension dim) {
        return Normalisation.normalised(load(pos, j, dim), dim == Dimension.CPU ? targetCpu[j] : targetDisk[j]);
    }

    double deviation(int[] pos, int j) {
        return Normalisation.deviation(normalized(pos, j, Dimension.CPU), normalized(pos, j, Dimension.DISK));
    }

    /** Δ of eq. 4 for a layout. */
    double imbalance(int[] pos) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            worst = Math.max(worst, deviation(pos, j));
        }
        return worst;
    }

    double spread(int[] pos) {
        return Imbalance.spread(n, j -> deviation(pos, j));
    }

    /** Every node's {A′_j, B′_j} for a layout. */
    private double[][] normalised(int[] pos) {
        double[][] out = new double[n][];
        for (int j = 0; j < n; j++) {
            out[j] = new double[] {normalized(pos, j, Dimension.CPU), normalized(pos, j, Dimension.DISK)};
        }
        return out;
    }

    /** Compares layouts by Δ, then by spread. */
    boolean better(int[] a, double deltaB, double spreadB, double minGain) {
        double deltaA = imbalance(a);
        if (deltaA < deltaB - minGain) {
            return true;
        }
        return deltaA <= deltaB + 1e-12 && spread(a) < spreadB - Math.max(minGain * minGain, 1e-12);
    }

    Balance balance(int[] pos) {
        return Imbalance.balance(normalised(pos));
    }

    /** True when positions are distinct and keep the nodes' cyclic order. */
    boolean ordered(int[] pos) {
        if (n == 1) {
            return true;
        }
        int descents = 0;
        for (int j = 0; j < n; j++) {
            int next = pos[(j + 1) % n];
            if (next == pos[j]) {
                return false;
            }
            if (next < pos[j]) {
                descents++;
            }
        }
        return descents == 1;
    }
}
