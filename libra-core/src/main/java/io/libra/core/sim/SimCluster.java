package io.libra.core.sim;

import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One simulated cluster: nodes, regions and where they are. Each strategy gets its own copy.
 * {@link #measure} is the only view strategies get: node totals with measurement noise and
 * per-region counters, in the public snapshot format.
 */
public final class SimCluster {
    /** Measurement noise (standard deviation, relative) of node CPU and disk figures. */
    public static final double CPU_NOISE = 0.01;
    public static final double DISK_NOISE = 0.015;
    /** Buckets in each region's key histogram. */
    public static final int HISTOGRAM_BUCKETS = 16;
    public static final String TABLE = "usertable";

    private final List<NodeSpec> nodes;
    private final boolean reportCapacities;
    private final Map<String, SimRegion> regions;

    public SimCluster(List<NodeSpec> nodes, Collection<SimRegion> regions, boolean reportCapacities) {
        this.nodes = List.copyOf(nodes);
        this.reportCapacities = reportCapacities;
        this.regions = new LinkedHashMap<>();
        regions.forEach(r -> this.regions.put(r.id(), r));
    }

    /**
     * A scenario's starting cluster: equal-width regions, spread evenly by count over the nodes
     * in a seeded random order (what a count-based balancer leaves behind). With a misaligned
     * layout the CPU-hot regions (more than twice the mean request rate) go to one half of the
     * nodes and as many of the most disk-hungry other regions to the other half, so CPU and disk
     * hot spots sit on different nodes as in the paper's measurements; the rest fill up at random.
     */
    public static SimCluster initial(Scenario s, long seed) {
        List<NodeSpec> specs = s.nodeSpecs();
        int m = s.regions();
        SplittableRandom rnd = new SplittableRandom(seed * 7 + 3);
        int[] order = Hotness.shuffled(m, rnd);
        int[] nodeOf = new int[m];
        for (int i = 0; i < m; i++) {
            nodeOf[i] = order[i] % specs.size();
        }
        double[][] bounds = new double[m][];
        for (int i = 0; i < m; i++) {
            bounds[i] = new double[] {(double) i / m, (double) (i + 1) / m};
        }
        if (s.misalignedLayout() && specs.size() >= 2) {
            nodeOf = misaligned(s.workload(seed, 0), bounds, specs.size(), rnd);
        }
        List<SimRegion> regions = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            double x0 = bounds[i][0];
            double x1 = bounds[i][1];
            String id = String.format(java.util.Locale.ROOT, "r-%04d", i);
            regions.add(new SimRegion(id, new KeyRange(KeySpace.key(x0), KeySpace.key(x1)), x0, x1, specs.get(nodeOf[i]).id()));
        }
        return new SimCluster(specs, regions, s.capacities() != null);
    }

    private static int[] misaligned(Workload w, double[][] bounds, int nodes, SplittableRandom rnd) {
        int m = bounds.length;
        double[] ops = new double[m];
        double[] disk = new double[m];
        double meanOps = 0;
        for (int i = 0; i < m; i++) {
            RegionTraffic t = w.traffic("", bounds[i][0], bounds[i][1]);
            ops[i] = t.requests();
            disk[i] = CostModel.DEFAULT.writtenDiskBytes(t) + CostModel.DEFAULT.readBlockBytes(t);
            meanOps += ops[i] / m;
        }
        List<Integer> hot = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            (ops[i] > 2 * meanOps ? hot : rest).add(i);
        }
        rest.sort((a, b) -> Double.compare(disk[b], disk[a]));
        List<Integer> heavy = new ArrayList<>(rest.subList(0, Math.min(rest.size(), Math.max(hot.size(), m / nodes))));
        List<Integer> others = new ArrayList<>(rest.subList(heavy.size(), rest.size()));
        int[] nodeOrder = Hotness.shuffled(nodes, rnd);
        int half = nodes / 2;
        int perNode = (m + nodes - 1) / nodes;
        int[] count = new int[nodes];
        int[] nodeOf = new int[m];
        place(hot, nodeOrder, 0, half, perNode, count, nodeOf);
        place(heavy, nodeOrder, half, nodes, perNode, count, nodeOf);
        int[] shuffled = Hotness.shuffled(others.size(), rnd);
        List<Integer> mixed = new ArrayList<>();
        for (int k : shuffled) {
            mixed.add(others.get(k));
        }
        place(mixed, nodeOrder, 0, nodes, perNode, count, nodeOf);
        return nodeOf;
    }

    /** Round-robin over nodeOrder[from, to), skipping full nodes (then any node with room). */
    private static void place(List<Integer> regions, int[] nodeOrder, int from, int to, int perNode, int[] count, int[] nodeOf) {
        int k = 0;
        for (int region : regions) {
            int tries = 0;
            int n = nodeOrder[from + k % (to - from)];
            while (count[n] >= perNode && tries++ < nodeOrder.length) {
                k++;
                n = tries < to - from ? nodeOrder[from + k % (to - from)] : nodeOrder[k % nodeOrder.length];
            }
            nodeOf[region] = n;
            count[n]++;
            k++;
        }
    }

    public SimCluster copy() {
        return new SimCluster(nodes, regions.values(), reportCapacities);
    }

    public List<NodeSpec> nodes() {
        return nodes;
    }

    public Collection<SimRegion> regions() {
        return regions.values();
    }

    public SimRegion region(String id) {
        return regions.get(id);
    }

    public boolean hasNode(String id) {
        return nodes.stream().anyMatch(n -> n.id().equals(id));
    }

    void replace(List<String> gone, List<SimRegion> added) {
        gone.forEach(regions::remove);
        added.forEach(r -> regions.put(r.id(), r));
    }

    void put(SimRegion r) {
        regions.put(r.id(), r);
    }

    public List<RegionTraffic> traffic(Workload w) {
        List<RegionTraffic> out = new ArrayList<>(regions.size());
        regions.values().forEach(r -> out.add(r.traffic(w)));
        return out;
    }

    public Map<String, String> assignment() {
        Map<String, String> m = new LinkedHashMap<>();
        regions.values().forEach(r -> m.put(r.id(), r.node()));
        return m;
    }

    /** The truth of the current placement in a steady window (no migrations). */
    public Score score(CostModel cost, Workload w) {
        return cost.score(nodes, traffic(w), assignment());
    }

    /** What a monitoring system would report for a window whose truth was {@code truth}. */
    public ClusterSnapshot measure(Workload w, List<NodeTruth> truth, double windowSeconds, Instant at,
                                   SplittableRandom noise) {
        return measure(w, truth, windowSeconds, at, noise, HISTOGRAM_BUCKETS);
    }

    /** As {@link #measure(Workload, List, double, Instant, SplittableRandom)} with {@code buckets} per key histogram (0: none). */
    public ClusterSnapshot measure(Workload w, List<NodeTruth> truth, double windowSeconds, Instant at,
                                   SplittableRandom noise, int buckets) {
        List<Node> measured = new ArrayList<>(nodes.size());
        for (int j = 0; j < nodes.size(); j++) {
            NodeSpec spec = nodes.get(j);
            double cpu = Math.min(spec.cpuCores(), Math.max(0, truth.get(j).cpu() * (1 + CPU_NOISE * Hotness.gaussian(noise))));
            double disk = Math.max(0, truth.get(j).disk() * (1 + DISK_NOISE * Hotness.gaussian(noise)));
            Capacity cap = reportCapacities ? new Capacity(spec.cpuCores(), spec.diskBytesPerSec()) : null;
            measured.add(new Node(spec.id(), spec.cpuCores(), cpu, disk, cap));
        }
        List<Region> out = new ArrayList<>(regions.size());
        for (SimRegion r : regions.values()) {
            out.add(new Region(r.id(), TABLE, r.range(), r.node(), r.sizeBytes(w),
                    counted(w.counters(r.x0(), r.x1()), windowSeconds, noise), buckets > 0 ? histogram(w, r, buckets) : List.of(), null));
        }
        return new ClusterSnapshot("generic", at, windowSeconds, measured, out);
    }

    /** Counters are counts over the window: Poisson-like noise that fades with volume. */
    private static RegionCounters counted(RegionCounters c, double window, SplittableRandom noise) {
        double ops = c.ops() * window;
        double f = ops > 0 ? Math.max(0, 1 + Hotness.gaussian(noise) / Math.sqrt(ops)) : 1;
        return c.scaled(f);
    }

    /** Equal-width buckets; a cut too narrow to name a key inside the region folds into the next bucket. */
    private static List<KeyBucket> histogram(Workload w, SimRegion r, int count) {
        List<KeyBucket> buckets = new ArrayList<>(count);
        String last = r.range().startKey();
        double lo = r.x0();
        for (int b = 1; b <= count; b++) {
            boolean final_ = b == count;
            double hi = final_ ? r.x1() : r.x0() + (r.x1() - r.x0()) * b / count;
            String end = final_ ? r.range().endKey() : KeySpace.key(hi);
            if (!final_ && (!r.range().strictlyContains(end) || end.compareTo(last) <= 0)) {
                continue;
            }
            double at = final_ ? r.x1() : KeySpace.position(end);
            buckets.add(new KeyBucket(end, w.counters(lo, at)));
            lo = at;
            last = end;
        }
        return buckets;
    }
}
