package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;
import java.util.List;
import java.util.TreeSet;

/**
 * The ring cut into slices (each segment into equal pieces) with prefix sums per replication
 * group, so a candidate layout is an array of slice positions and evaluating it costs
 * O(nodes × groups). A node at position p owns the token at the end of slice p. Immutable.
 */
final class RingGrid {
    final List<RingNode> nodes;
    final int n;
    final int m;
    final long[] end;
    final int[] rf;
    private final double[][] cpu;
    private final double[][] disk;
    private final double[][] size;
    private final double[] totalCpu;
    private final double[] totalDisk;
    final double[] targetCpu;
    final double[] targetDisk;
    final int[] initial;

    RingGrid(RingLoad ring, int slicesPerSegment) {
        this.nodes = ring.nodes();
        this.n = nodes.size();
        TreeSet<Integer> factors = new TreeSet<>();
        ring.segments().forEach(s -> s.loads().forEach(l -> factors.add(l.replicationFactor())));
        this.rf = factors.stream().mapToInt(Integer::intValue).toArray();
        int k = Math.max(1, slicesPerSegment);
        List<RingSegment> segs = ring.segments();
        int cap = segs.size() * k;
        long[] ends = new long[cap];
        double[][] c = new double[rf.length][cap];
        double[][] d = new double[rf.length][cap];
        double[][] z = new double[rf.length][cap];
        int count = 0;
        for (int i = 0; i < segs.size(); i++) {
            RingSegment seg = segs.get(i);
            long prev = segs.get((i - 1 + segs.size()) % segs.size()).endToken();
            long span = Tokens.clockwise(prev, seg.endToken());
            int pieces = span != 0 && Long.compareUnsigned(span, k) < 0 ? 1 : k;
            for (int s = 0; s < pieces; s++) {
                ends[count] = s == pieces - 1 ? seg.endToken() : Tokens.advance(prev, span, (s + 1.0) / pieces);
                for (ReplicaLoad l : seg.loads()) {
                    int g = group(l.replicationFactor());
                    c[g][count] += l.cpu() / pieces;
                    d[g][count] += l.disk() / pieces;
                    z[g][count] += l.sizeBytes() / pieces;
                }
                count++;
            }
        }
        this.m = count;
        this.end = java.util.Arrays.copyOf(ends, count);
        this.cpu = prefixes(c, count);
        this.disk = prefixes(d, count);
        this.size = prefixes(z, count);
        this.totalCpu = totals(cpu);
        this.totalDisk = totals(disk);
        this.initial = positions(nodes, end);
        this.targetCpu = targets(Dimension.CPU);
        this.targetDisk = targets(Dimension.DISK);
    }

    /**
     * Each node's slice. Not a binary search: the first segment starts at the last one's end, so
     * when that is not the highest token its slices wrap past it and the ends are not sorted.
     */
    private static int[] positions(List<RingNode> nodes, long[] end) {
        java.util.Map<Long, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < end.length; i++) {
            at.put(end[i], i);
        }
        int[] pos = new int[nodes.size()];
        for (int j = 0; j < pos.length; j++) {
            pos[j] = at.get(nodes.get(j).token());
        }
        return pos;
    }

    private int group(int factor) {
        for (int g = 0; g < rf.length; g++) {
            if (rf[g] == factor) {
                return g;
            }
        }
        throw new IllegalStateException("unknown replication factor " + factor);
    }

    /** Prefix sums over the slices laid out twice, so arcs that wrap need no special case. */
    private static double[][] prefixes(double[][] v, int count) {
        double[][] p = new double[v.length][2 * count + 1];
        for (int g = 0; g < v.length; g++) {
            for (int i = 0; i < 2 * count; i++) {
                p[g][i + 1] = p[g][i] + v[g][i % count];
            }
        }
        return p;
    }

    private double[] totals(double[][] prefix) {
        double[] t = new double[prefix.length];
        for (int g = 0; g < prefix.length; g++) {
            t[g] = prefix[g][m];
        }
        return t;
    }

    private double[] targets(Dimension dim) {
        double total = 0;
        double[] capacity = new double[n];
        for (int j = 0; j < n; j++) {
            RingNode node = nodes.get(j);
            total += dim == Dimension.CPU ? node.baseCpu() : node.baseDisk();
            capacity[j] = capacity(node, dim);
        }
        for (int g = 0; g < rf.length; g++) {
            total += Math.min(rf[g], n) * (dim == Dimension.CPU ? totalCpu[g] : totalDisk[g]);
        }
        return Normalisation.targets(total, n, capacity);
    }

    private static double capacity(RingNode node, Dimension dim) {
        return dim == Dimension.CPU ? node.cpuCapacity() : node.diskCapacity();
    }

    /** Sum over slices (from, to] clockwise; from == to means the whole ring. */
    static double arc(double[] prefix, int m, int from, int to) {
        return to > from ? prefix[to + 1] - prefix[from + 1] : prefix[to + 1 + m] - prefix[from + 1];
    }

    double groupArc(int g, Dimension dim, int from, int to) {
        return arc(dim == Dimension.CPU ? cpu[g] : disk[g], m, from, to);
    }

    double[] prefix(int g, Dimension dim) {
        return dim == Dimension.CPU ? cpu[g] : disk[g];
    }

    double groupTotal(int g, Dimension dim) {
        return dim == Dimension.CPU ? totalCpu[g] : totalDisk[g];
    }

    /**
     * Bytes whose replica set changes when a boundary moves from one position to another
     * without crossing a neighbour: the slices between them, in the direction it moves.
     */
    double movedBytes(int from, int to, boolean clockwise) {
        if (from == to) {
            return 0;
        }
        double bytes = 0;
        for (int g = 0; g < rf.length; g++) {
            if (rf[g] < n) {
                bytes += clockwise ? arc(size[g], m, from, to) : arc(size[g], m, to, from);
            }
        }
        return bytes;
    }

    /** Load of node j in dimension dim for a layout. */
    double load(int[] pos, int j, Dimension dim) {
        double v = dim == Dimension.CPU ? nodes.get(j).baseCpu() : nodes.get(j).baseDisk();
        for (int g = 0; g < rf.length; g++) {
            if (rf[g] >= n) {
                v += groupTotal(g, dim);
            } else {
                v += groupArc(g, dim, pos[(j - rf[g] + n) % n], pos[j]);
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

    /**
     * Sum of squared positive deviations: breaks ties of Δ when two nodes share the maximum,
     * so a search can lower one of them first (the only way forward with RF > 1).
     */
    double spread(int[] pos) {
        double s = 0;
        for (int j = 0; j < n; j++) {
            double d = Math.max(0, deviation(pos, j));
            s += d * d;
        }
        return s;
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
        double c = 0;
        double d = 0;
        for (int j = 0; j < n; j++) {
            c = Math.max(c, normalized(pos, j, Dimension.CPU));
            d = Math.max(d, normalized(pos, j, Dimension.DISK));
        }
        return new Balance(c, d, Math.max(c, d) - 1);
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
