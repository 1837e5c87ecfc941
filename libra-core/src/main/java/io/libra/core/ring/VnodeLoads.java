package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-node loads of a vnode ring for any layout of its tokens on the slice grid: each range
 * (p_{r-1}, p_r] goes, per replica group, to the nodes {@link RingTopology} places it on, walking
 * the tokens clockwise from r only as far as the placement needs. Nodes without a token yet (one
 * about to join) carry nothing but their base, which is 0. Immutable.
 */
final class VnodeLoads {
    final Slices slices;
    final List<String> ids;
    private final Map<String, RingTopology.Place> places;
    private final Map<String, Integer> index;
    private final double[] baseCpu;
    private final double[] baseDisk;
    private final LoadPools pools;

    /**
     * @param joining a node not in the ring yet (no tokens, no base load), or null
     * @param place   where it joins (null when no load is placed by data centre and rack)
     */
    VnodeLoads(VnodeRing ring, int slicesPerSegment, String joining, RingTopology.Place place) {
        this.slices = new Slices(ring.segments(), slicesPerSegment);
        Map<String, RingTopology.Place> p = new HashMap<>(ring.places());
        if (joining != null && place != null) {
            p.put(joining, place);
        }
        this.places = Map.copyOf(p);
        List<String> all = new ArrayList<>();
        List<double[]> bases = new ArrayList<>();
        ring.members().forEach(m -> {
            all.add(m.id());
            bases.add(new double[] {m.baseCpu(), m.baseDisk()});
        });
        if (joining != null && !all.contains(joining)) {
            all.add(joining);
            bases.add(new double[2]);
        }
        this.ids = List.copyOf(all);
        this.index = new HashMap<>();
        for (int j = 0; j < ids.size(); j++) {
            index.put(ids.get(j), j);
        }
        this.baseCpu = bases.stream().mapToDouble(b -> b[0]).toArray();
        this.baseDisk = bases.stream().mapToDouble(b -> b[1]).toArray();
        this.pools = new LoadPools(ids, slices.groups, places);
    }

    /** A layout: token slice positions in ring order, each with its owner's index in {@link #ids}. */
    record Layout(int[] pos, int[] owner) {
        /** The same with one more token at slice p (free), owned by node j. */
        Layout plus(int p, int j) {
            int at = java.util.Arrays.binarySearch(pos, p);
            int i = -at - 1;
            int[] np = new int[pos.length + 1];
            int[] no = new int[pos.length + 1];
            System.arraycopy(pos, 0, np, 0, i);
            System.arraycopy(owner, 0, no, 0, i);
            np[i] = p;
            no[i] = j;
            System.arraycopy(pos, i, np, i + 1, pos.length - i);
            System.arraycopy(owner, i, no, i + 1, pos.length - i);
            return new Layout(np, no);
        }

        /** The same without the token at slice p (one of the layout's). */
        Layout minus(int p) {
            int i = java.util.Arrays.binarySearch(pos, p);
            int[] np = new int[pos.length - 1];
            int[] no = new int[pos.length - 1];
            System.arraycopy(pos, 0, np, 0, i);
            System.arraycopy(owner, 0, no, 0, i);
            System.arraycopy(pos, i + 1, np, i, pos.length - i - 1);
            System.arraycopy(owner, i + 1, no, i, pos.length - i - 1);
            return new Layout(np, no);
        }

        /** The slices of node j's tokens, in ring order. */
        int[] of(int j) {
            return java.util.stream.IntStream.range(0, pos.length).filter(i -> owner[i] == j).map(i -> pos[i]).toArray();
        }
    }

    /** The ring's own tokens as a layout. */
    Layout layout(VnodeRing ring) {
        Map<Long, Integer> at = slices.positions();
        Map<Integer, Integer> byPos = new java.util.TreeMap<>();
        for (VnodeRing.Member m : ring.members()) {
            m.tokens().forEach(t -> byPos.put(at.get(t), ids.indexOf(m.id())));
        }
        return new Layout(byPos.keySet().stream().mapToInt(Integer::intValue).toArray(),
                byPos.values().stream().mapToInt(Integer::intValue).toArray());
    }

    /** Per node {cpu, disk}. */
    double[][] loads(Layout l) {
        return evaluate(l).loads;
    }

    /**
     * A layout with each range's holders per group and how far their walk read, so the same layout
     * with one more token costs only the ranges whose walk reaches it ({@link #loadsWith}).
     */
    record Evaluated(Layout layout, List<String> owners, double[][] loads, RingTopology.Census[] census,
                     int[][][] holders, int[][] read, int[] maxRead) {
    }

    Evaluated evaluate(Layout l) {
        int t = l.pos().length;
        int gs = slices.groups.size();
        double[][] out = new double[ids.size()][];
        for (int j = 0; j < out.length; j++) {
            out[j] = new double[] {baseCpu[j], baseDisk[j]};
        }
        List<String> owners = owners(l);
        RingTopology.Census[] census = new RingTopology.Census[gs];
        int[][][] holders = new int[gs][t][];
        int[][] read = new int[gs][t];
        int[] maxRead = new int[gs];
        for (int g = 0; g < gs; g++) {
            census[g] = RingTopology.Census.of(slices.groups.get(g), places, owners);
            for (int r = 0; r < t; r++) {
                RingTopology.Held h = RingTopology.holders(slices.groups.get(g), places, census[g], walk(owners, r));
                holders[g][r] = indices(h);
                read[g][r] = h.read();
                maxRead[g] = Math.max(maxRead[g], h.read());
                add(out, holders[g][r], g, l.pos()[(r - 1 + t) % t], l.pos()[r], 1);
            }
        }
        return new Evaluated(l, owners, out, census, holders, read, maxRead);
    }

    /**
     * Whether {@link #loadsWith} may work out only the ranges a new token of node j touches on
     * {@code e}'s layout, whatever the slice: the same for every candidate slice, so a search over
     * slices asks once.
     */
    boolean incremental(Evaluated e, int j) {
        return e.owners().contains(ids.get(j)) || sameWalkRules(e, j);
    }

    /**
     * The loads of {@code e}'s layout with one more token at free slice p, owned by node j. When the
     * placement rules stay as they were ({@link #sameWalkRules}; always when j already owns a
     * token) only the split range, the new one and the ranges whose walk read past the new token's
     * place are worked out again. {@code incremental} is {@link #incremental}{@code (e, j)}.
     */
    double[][] loadsWith(Evaluated e, int p, int j, boolean incremental) {
        int t = e.layout().pos().length;
        if (!incremental) {
            return loads(e.layout().plus(p, j));
        }
        int at = -java.util.Arrays.binarySearch(e.layout().pos(), p) - 1;
        int r = at % t;
        List<String> owners = new ArrayList<>(e.owners());
        owners.add(at, ids.get(j));
        double[][] out = new double[e.loads().length][];
        for (int k = 0; k < out.length; k++) {
            out[k] = e.loads()[k].clone();
        }
        int[] pos = e.layout().pos();
        for (int g = 0; g < slices.groups.size(); g++) {
            ReplicaGroup group = slices.groups.get(g);
            int prev = pos[(r - 1 + t) % t];
            add(out, e.holders()[g][r], g, prev, p, -1);
            add(out, indices(RingTopology.holders(group, places, e.census()[g], walk(owners, at))), g, prev, p, 1);
            for (int d = 1; d < Math.min(t, e.maxRead()[g]); d++) {
                int i = (r - d + t) % t;
                if (e.read()[g][i] > d) {
                    int from = pos[(i - 1 + t) % t];
                    add(out, e.holders()[g][i], g, from, pos[i], -1);
                    int moved = i < at ? i : i + 1;
                    add(out, indices(RingTopology.holders(group, places, e.census()[g], walk(owners, moved))), g, from,
                            pos[i], 1);
                }
            }
        }
        return out;
    }

    /**
     * Whether a node joining with its first token leaves every group's placement rules as they
     * were: as many replicas to place (the factor, capped at the nodes there are) and as many racks
     * (so as many repeats allowed); then only walks that reach its token can change.
     */
    private boolean sameWalkRules(Evaluated e, int j) {
        List<String> with = new ArrayList<>(e.owners());
        with.add(ids.get(j));
        for (int g = 0; g < slices.groups.size(); g++) {
            int f = slices.groups.get(g).factor();
            RingTopology.Census now = e.census()[g];
            RingTopology.Census then = RingTopology.Census.of(slices.groups.get(g), places, with);
            if (Math.min(f, now.members()) != Math.min(f, then.members()) || now.racks() != then.racks()) {
                return false;
            }
        }
        return true;
    }

    private void add(double[][] out, int[] holders, int g, int from, int to, int sign) {
        double cpu = sign * slices.arc(g, Dimension.CPU, from, to);
        double disk = sign * slices.arc(g, Dimension.DISK, from, to);
        for (int h : holders) {
            out[h][0] += cpu;
            out[h][1] += disk;
        }
    }

    private int[] indices(RingTopology.Held h) {
        return h.nodes().stream().mapToInt(index::get).toArray();
    }

    private List<String> owners(Layout l) {
        List<String> out = new ArrayList<>(l.owner().length);
        for (int o : l.owner()) {
            out.add(ids.get(o));
        }
        return out;
    }

    /** Owners clockwise from token r (a view: the placement reads only as far as it needs). */
    private static List<String> walk(List<String> owners, int r) {
        return new AbstractList<>() {
            @Override
            public String get(int i) {
                return owners.get((r + i) % owners.size());
            }

            @Override
            public int size() {
                return owners.size();
            }
        };
    }

    /** Max/Mean per dimension and Δ (eq. 4), every node's target its pool's mean (a homogeneous ring: {@link LoadPools}). */
    Balance balance(double[][] loads) {
        return Imbalance.balance(normalised(loads));
    }

    /** Breaks ties of Δ ({@link Imbalance#spread}). */
    double spread(double[][] loads) {
        return Imbalance.spread(normalised(loads));
    }

    private double[][] normalised(double[][] loads) {
        double[] tc = pools.targets(java.util.Arrays.stream(loads).mapToDouble(x -> x[0]).toArray(), null);
        double[] td = pools.targets(java.util.Arrays.stream(loads).mapToDouble(x -> x[1]).toArray(), null);
        double[][] out = new double[loads.length][];
        for (int j = 0; j < loads.length; j++) {
            out[j] = new double[] {Normalisation.normalised(loads[j][0], tc[j]), Normalisation.normalised(loads[j][1], td[j])};
        }
        return out;
    }
}
