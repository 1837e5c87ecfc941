package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeForecast;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The estimated load of a cluster: α/β per region and A/B per node (eq. 1–4). Immutable.
 * A node's load is its regions' load plus a base that no region explains (background work,
 * or a node with no counters at all); the base never moves.
 *
 * <p>Targets: on a homogeneous cluster every node's target is the mean, exactly as in the
 * paper. When every node declares a capacity, node j's target is the total times its share
 * of capacity, so normalised loads compare utilisation against the cluster's mean utilisation.
 */
public final class LoadModel {
    private final List<Node> nodes;
    private final List<RegionLoad> regions;
    private final double[] baseCpu;
    private final double[] baseDisk;
    private final Map<String, Integer> index;
    private final double[] cpu;
    private final double[] disk;
    private final double[] targetCpu;
    private final double[] targetDisk;
    /** The learnt block cache and the layout its node figures start from; null without one. */
    private final Cache cache;
    /** Per node, the CPU one unit of region work costs there relative to the mean node (1 when not learnt). */
    private final double[] speed;

    /**
     * A cache model on a layout: node j's disk in another layout is {@code start[j]} plus what the
     * model says the change of its regions changed ({@code model.nodeDisk(now) − modelled[j]}).
     */
    public record Cache(CacheModel model, double[] start, double[] modelled) {
        /** Node j's disk with {@code onNode} as its regions. */
        public double disk(int j, List<io.libra.core.model.Region> onNode) {
            return start[j] + model.nodeDisk(onNode) - modelled[j];
        }
    }

    /** The balance of a window's measured node totals, as a plan made on it states its Δ before. */
    public static Balance measuredBalance(ClusterSnapshot s) {
        int n = s.nodes().size();
        double[] cpu = new double[n];
        double[] disk = new double[n];
        for (int j = 0; j < n; j++) {
            cpu[j] = s.nodes().get(j).cpuUsage();
            disk[j] = s.nodes().get(j).diskBytesPerSec();
        }
        return new LoadModel(s.nodes(), List.of(), cpu, disk).balance();
    }

    public LoadModel(List<Node> nodes, List<RegionLoad> regions, double[] baseCpu, double[] baseDisk) {
        this(nodes, regions, baseCpu, baseDisk, null, null);
    }

    private LoadModel(List<Node> nodes, List<RegionLoad> regions, double[] baseCpu, double[] baseDisk, Cache cache,
                      double[] speed) {
        this.nodes = List.copyOf(nodes);
        this.cache = cache;
        this.speed = speed;
        this.regions = List.copyOf(regions);
        this.baseCpu = baseCpu.clone();
        this.baseDisk = baseDisk.clone();
        this.index = indexOf(this.nodes);
        this.cpu = this.baseCpu.clone();
        this.disk = this.baseDisk.clone();
        for (RegionLoad r : this.regions) {
            int j = nodeIndex(r.node());
            cpu[j] += r.cpu();
            disk[j] += r.disk();
        }
        if (cache != null) {
            List<List<io.libra.core.model.Region>> on = byNode();
            for (int j = 0; j < disk.length; j++) {
                disk[j] = cache.disk(j, on.get(j));
            }
        }
        this.targetCpu = targets(Dimension.CPU, cpu);
        this.targetDisk = targets(Dimension.DISK, disk);
    }

    private static Map<String, Integer> indexOf(List<Node> nodes) {
        Map<String, Integer> m = new HashMap<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            m.put(nodes.get(i).id(), i);
        }
        return m;
    }

    private double[] targets(Dimension d, double[] load) {
        double[] capacity = null;
        if (isHeterogeneous()) {
            capacity = nodes.stream().mapToDouble(n -> n.capacity().of(d)).toArray();
        }
        return Normalisation.targets(load, capacity);
    }

    /** The same nodes and base load with another region layout (a plan's predicted state). */
    public LoadModel withRegions(List<RegionLoad> newRegions) {
        return new LoadModel(nodes, newRegions, baseCpu, baseDisk, cache, speed);
    }

    /**
     * A model of some of these nodes with some of their regions (the rest folded into the bases),
     * keeping this one's block cache: moves among the regions kept change a node's disk as the
     * cache model says of them (an adapter pinning a few system regions this way leaves their reads
     * out of the cache's sums).
     */
    public LoadModel restricted(List<Node> kept, List<RegionLoad> movable, double[] keptBaseCpu, double[] keptBaseDisk) {
        double[] keptSpeed = speed == null ? null : kept.stream().mapToDouble(n -> speed[nodeIndex(n.id())]).toArray();
        LoadModel m = new LoadModel(kept, movable, keptBaseCpu, keptBaseDisk, null, keptSpeed);
        return cache == null ? m : m.withCache(cache.model());
    }

    /** The same loads; another layout changes a node's disk as {@code model} says ({@link CacheModel}). */
    public LoadModel withCache(CacheModel model) {
        List<List<io.libra.core.model.Region>> on = byNode();
        double[] modelled = new double[nodes.size()];
        for (int j = 0; j < modelled.length; j++) {
            modelled[j] = model.nodeDisk(on.get(j));
        }
        return new LoadModel(nodes, regions, baseCpu, baseDisk, new Cache(model, disk.clone(), modelled), speed);
    }

    /** The learnt block cache node disk follows, if any. */
    public java.util.Optional<Cache> cache() {
        return java.util.Optional.ofNullable(cache);
    }

    private List<List<io.libra.core.model.Region>> byNode() {
        List<List<io.libra.core.model.Region>> on = new ArrayList<>(nodes.size());
        for (int j = 0; j < nodes.size(); j++) {
            on.add(new ArrayList<>());
        }
        for (RegionLoad r : regions) {
            on.get(nodeIndex(r.node())).add(r.region());
        }
        return on;
    }

    /**
     * The same node totals with only {@code share} of each region's load moving with it (per
     * dimension); the rest joins its node's base, as the last moves measured ({@link RealisedShare}).
     */
    public LoadModel withMovingShare(RealisedShare share) {
        if (share.cpu() >= 1 && share.disk() >= 1) {
            return this;
        }
        double[] bc = baseCpu.clone();
        double[] bd = baseDisk.clone();
        List<RegionLoad> moving = new ArrayList<>(regions.size());
        for (RegionLoad r : regions) {
            int j = nodeIndex(r.node());
            bc[j] += r.cpu() * (1 - share.cpu());
            bd[j] += r.disk() * (1 - share.disk());
            moving.add(new RegionLoad(r.region(), r.cpu() * share.cpu(), r.disk() * share.disk()));
        }
        return new LoadModel(nodes, moving, bc, bd, cache, speed);
    }

    /**
     * The same loads where a unit of region work costs {@code speed[j]} CPU on node j, relative to
     * the mean node: a region's CPU scales by the ratio of its destination's speed to its node's.
     */
    public LoadModel withSpeeds(double[] speeds) {
        return new LoadModel(nodes, regions, baseCpu, baseDisk, cache, speeds.clone());
    }

    /** Region r's CPU were it on node j (its own CPU on its node). */
    public double cpuOn(RegionLoad r, int j) {
        return speed == null ? r.cpu() : r.cpu() * speedRatio(nodeIndex(r.node()), j);
    }

    /** What a region's CPU on node {@code from} is multiplied by on node {@code to}. */
    public double speedRatio(int from, int to) {
        return speed == null ? 1 : speed[to] / speed[from];
    }

    /** Each node's load in both dimensions, as a plan forecasts them for the next window. */
    public List<NodeForecast> forecast() {
        List<NodeForecast> out = new ArrayList<>(nodes.size());
        for (int j = 0; j < nodes.size(); j++) {
            out.add(new NodeForecast(nodes.get(j).id(), cpu[j], disk[j]));
        }
        return out;
    }

    public boolean isHeterogeneous() {
        return !nodes.isEmpty() && nodes.stream().allMatch(n -> n.capacity() != null);
    }

    public List<Node> nodes() {
        return nodes;
    }

    public List<RegionLoad> regions() {
        return regions;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public int nodeIndex(String id) {
        Integer i = index.get(id);
        if (i == null) {
            throw new IllegalArgumentException("unknown node " + id);
        }
        return i;
    }

    public boolean hasNode(String id) {
        return index.containsKey(id);
    }

    /** A_j or B_j: absolute load of node j. */
    public double load(int node, Dimension d) {
        return d == Dimension.CPU ? cpu[node] : disk[node];
    }

    public double base(int node, Dimension d) {
        return d == Dimension.CPU ? baseCpu[node] : baseDisk[node];
    }

    /** What node j should carry in dimension d when perfectly balanced (the mean, or its capacity share). */
    public double target(int node, Dimension d) {
        return d == Dimension.CPU ? targetCpu[node] : targetDisk[node];
    }

    /** A'_j or B'_j (eq. 1); 1 when the whole cluster carries no load in d. */
    public double normalized(int node, Dimension d) {
        return Normalisation.normalised(load(node, d), target(node, d));
    }

    /** δ_j (eq. 3). */
    public double deviation(int node) {
        return Normalisation.deviation(normalized(node, Dimension.CPU), normalized(node, Dimension.DISK));
    }

    public Balance balance() {
        double maxCpu = 0;
        double maxDisk = 0;
        for (int j = 0; j < nodes.size(); j++) {
            maxCpu = Math.max(maxCpu, normalized(j, Dimension.CPU));
            maxDisk = Math.max(maxDisk, normalized(j, Dimension.DISK));
        }
        return new Balance(maxCpu, maxDisk, Normalisation.deviation(maxCpu, maxDisk));
    }

    /** Total load in a dimension; conserved by every plan. */
    public double total(Dimension d) {
        double s = 0;
        for (int j = 0; j < nodes.size(); j++) {
            s += load(j, d);
        }
        return s;
    }
}
