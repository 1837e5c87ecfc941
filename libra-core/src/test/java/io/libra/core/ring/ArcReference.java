package io.libra.core.ring;

import io.libra.core.plan.Balance;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately plain oracle for ring loads, sharing no code with the planner's grid: node k
 * with replication factor r holds the arc (t_{k-r}, t_k]; its load is its base plus, for every
 * segment, the segment's per-replica load times the fraction of the segment's width inside that
 * arc, measured in exact integers.
 */
final class ArcReference {
    private ArcReference() {
    }

    /** Per node (sorted by token): {cpu, disk}. Tokens may lie inside segments. */
    static Map<String, double[]> loads(List<RingNode> nodes, List<RingSegment> segments) {
        List<RingNode> sorted = new ArrayList<>(nodes);
        sorted.sort((a, b) -> Long.compare(a.token(), b.token()));
        int n = sorted.size();
        Map<String, double[]> out = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            RingNode node = sorted.get(k);
            double[] load = {node.baseCpu(), node.baseDisk()};
            for (int i = 0; i < segments.size(); i++) {
                RingSegment s = segments.get(i);
                long start = segments.get((i - 1 + segments.size()) % segments.size()).endToken();
                for (ReplicaLoad l : s.loads()) {
                    int r = l.replicationFactor();
                    double f = r >= n ? 1 : overlap(start, s.endToken(), sorted.get(Math.floorMod(k - r, n)).token(),
                            node.token()) / width(start, s.endToken());
                    load[0] += f * l.cpu();
                    load[1] += f * l.disk();
                }
            }
            out.put(node.id(), load);
        }
        return out;
    }

    /** Max/Mean per dimension and Δ, on a homogeneous ring (every target the mean). */
    /** The same with each node measured against the mean of its pool (the nodes {@code poolOf} names alike). */
    static Balance balance(Map<String, double[]> loads, java.util.function.Function<String, String> poolOf) {
        double c = 0;
        double d = 0;
        for (List<String> pool : loads.keySet().stream().collect(java.util.stream.Collectors.groupingBy(poolOf)).values()) {
            Map<String, double[]> in = new java.util.TreeMap<>();
            pool.forEach(id -> in.put(id, loads.get(id)));
            Balance b = balance(in);
            c = Math.max(c, b.cpuMaxOverMean());
            d = Math.max(d, b.diskMaxOverMean());
        }
        return new Balance(c, d, Math.max(c, d) - 1);
    }

    static Balance balance(Map<String, double[]> loads) {
        double[] total = new double[2];
        double[] max = new double[2];
        loads.values().forEach(l -> {
            for (int d = 0; d < 2; d++) {
                total[d] += l[d];
                max[d] = Math.max(max[d], l[d]);
            }
        });
        double c = total[0] > 0 ? max[0] / (total[0] / loads.size()) : 1;
        double d = total[1] > 0 ? max[1] / (total[1] / loads.size()) : 1;
        return new Balance(c, d, Math.max(c, d) - 1);
    }

    private static final BigInteger FULL = BigInteger.ONE.shiftLeft(64);

    /** Clockwise length from a to b as an exact integer; a == b is the whole ring. */
    private static BigInteger length(long a, long b) {
        BigInteger l = new BigInteger(Long.toUnsignedString(b - a));
        return l.signum() == 0 ? FULL : l;
    }

    static double width(long a, long b) {
        return length(a, b).doubleValue();
    }

    /** Width shared by the clockwise arcs (a, b] and (c, d], in exact integers measured from a. */
    static double overlap(long a, long b, long c, long d) {
        BigInteger w = length(a, b);
        BigInteger from = new BigInteger(Long.toUnsignedString(c - a));
        BigInteger len = length(c, d);
        BigInteger sum = BigInteger.ZERO;
        for (BigInteger start : new BigInteger[] {from, from.subtract(FULL)}) {
            BigInteger x = w.min(start.add(len)).subtract(start.max(BigInteger.ZERO));
            sum = sum.add(x.max(BigInteger.ZERO));
        }
        return sum.doubleValue();
    }
}
