package io.libra.core.ring;

import io.libra.core.model.Dimension;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A ring's segments cut into equal slices (a segment's load spread evenly over its tokens), in
 * ring order from the first segment's first slice, with prefix sums per replica group: a token at
 * the end of slice p, and the load of any arc of slices, cost O(1). Immutable.
 */
final class Slices {
    final List<ReplicaGroup> groups;
    final int m;
    final long[] end;
    private final double[][] cpu;
    private final double[][] disk;
    private final double[][] size;

    Slices(List<RingSegment> segs, int slicesPerSegment) {
        TreeSet<ReplicaGroup> found = new TreeSet<>(ReplicaGroup.ORDER);
        segs.forEach(s -> s.loads().forEach(l -> found.add(l.group())));
        this.groups = List.copyOf(found);
        int gs = groups.size();
        int k = Math.max(1, slicesPerSegment);
        int cap = segs.size() * k;
        long[] ends = new long[cap];
        double[][] c = new double[gs][cap];
        double[][] d = new double[gs][cap];
        double[][] z = new double[gs][cap];
        int count = 0;
        for (int i = 0; i < segs.size(); i++) {
            RingSegment seg = segs.get(i);
            long prev = segs.get((i - 1 + segs.size()) % segs.size()).endToken();
            long span = Tokens.clockwise(prev, seg.endToken());
            int pieces = span != 0 && Long.compareUnsigned(span, k) < 0 ? 1 : k;
            for (int s = 0; s < pieces; s++) {
                ends[count] = s == pieces - 1 ? seg.endToken() : Tokens.advance(prev, span, (s + 1.0) / pieces);
                for (ReplicaLoad l : seg.loads()) {
                    int g = groups.indexOf(l.group());
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

    /**
     * The slice ending at each token. Not a binary search: the first segment starts at the last
     * one's end, so when that is not the highest token its slices wrap past it and the ends are
     * not sorted.
     */
    Map<Long, Integer> positions() {
        Map<Long, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < m; i++) {
            at.put(end[i], i);
        }
        return at;
    }

    /** Sum over slices (from, to] clockwise; from == to means the whole ring. */
    static double arc(double[] prefix, int m, int from, int to) {
        return to > from ? prefix[to + 1] - prefix[from + 1] : prefix[to + 1 + m] - prefix[from + 1];
    }

    double arc(int g, Dimension dim, int from, int to) {
        return arc(prefix(g, dim), m, from, to);
    }

    double bytes(int g, int from, int to) {
        return arc(size[g], m, from, to);
    }

    double[] prefix(int g, Dimension dim) {
        return dim == Dimension.CPU ? cpu[g] : disk[g];
    }

    double total(int g, Dimension dim) {
        return prefix(g, dim)[m];
    }
}
