package io.libra.cli.sim;

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
     * in a seeded random order (what a count-based balancer leaves behind).
     */
    public static SimCluster initial(Scenario s, long seed) {
        List<NodeSpec> specs = s.nodeSpecs();
        int[] order = Hotness.shuffled(s.regions(), new SplittableRandom(seed * 7 + 3));
        List<SimRegion> regions = new ArrayList<>(s.regions());
        for (int i = 0; i < s.regions(); i++) {
            double x0 = (double) i / s.regions();
            double x1 = (double) (i + 1) / s.regions();
            String id = String.format(java.util.Locale.ROOT, "r-%04d", i);
            String node = specs.get(order[i] % specs.size()).id();
            regions.add(new SimRegion(id, new KeyRange(KeySpace.key(x0), KeySpace.key(x1)), x0, x1, node));
        }
        return new SimCluster(specs, regions, s.capacities() != null);
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
