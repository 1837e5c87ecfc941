package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.OwnLoad;
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
    /**
     * Per dimension (CPU, disk) and node, what one unit of region work costs there relative to the
     * mean node; a dimension's entry is null when no speeds were learnt in it (all 1).
     */
    private final double[][] speed;
    /** Per dimension (CPU, disk), the replica writes nodes apply for regions led elsewhere; null when none. */
    private final Followers[] followers;
    /** The cost that shared each dimension's node totals among regions; null: the paper's mapping. */
    private final RegionCosts costs;

    /**
     * A cache model on a layout: node j's disk in another layout is {@code start[j]} plus what the
     * model says the change of its regions changed ({@code model.nodeDisk(now) − modelled[j]}).
     */
    public record Cache(CacheModel model, double[] start, double[] modelled, double[] speed) {
        /** Node j's disk with {@code onNode} as its regions: the change at its disk's speed, when it has one. */
        public double disk(int j, List<io.libra.core.model.Region> onNode) {
            return start[j] + (speed == null ? 1 : speed[j]) * (model.nodeDisk(onNode) - modelled[j]);
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
        this(nodes, regions, baseCpu, baseDisk, null, new double[2][], new Followers[2], null);
    }

    private LoadModel(List<Node> nodes, List<RegionLoad> regions, double[] baseCpu, double[] baseDisk, Cache cache,
                      double[][] speed, Followers[] followers, RegionCosts costs) {
        this.nodes = List.copyOf(nodes);
        this.costs = costs;
        this.cache = cache;
        this.speed = speed.clone();
        this.followers = followers.clone();
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
        addFollowers(Dimension.CPU, cpu);
        addFollowers(Dimension.DISK, disk);
        if (cache != null) {
            List<List<io.libra.core.model.Region>> on = byNode();
            for (int j = 0; j < disk.length; j++) {
                disk[j] = cache.disk(j, on.get(j));
            }
        }
        this.targetCpu = targets(Dimension.CPU, cpu);
        this.targetDisk = targets(Dimension.DISK, disk);
    }

    private void addFollowers(Dimension d, double[] load) {
        if (followers[d.ordinal()] != null) {
            double[] replica = replicas(d, followers[d.ordinal()], speed, regions);
            for (int j = 0; j < load.length; j++) {
                load[j] += replica[j];
            }
        }
    }

    /** Per node, the replica writes {@code f} has it apply for {@code led} in d (at its speed in d, when it has one). */
    private double[] replicas(Dimension d, Followers f, double[][] speeds, List<RegionLoad> led) {
        double[] replica = f.loads(regionsOnly(led), this::nodeIndex);
        double[] in = speeds[d.ordinal()];
        if (in != null) {
            for (int j = 0; j < replica.length; j++) {
                replica[j] *= in[j];
            }
        }
        return replica;
    }

    private static List<io.libra.core.model.Region> regionsOnly(List<RegionLoad> loads) {
        return loads.stream().map(RegionLoad::region).toList();
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
        return new LoadModel(nodes, newRegions, baseCpu, baseDisk, cache, speed, followers, costs);
    }

    /**
     * The same loads where nodes apply replica writes for regions led elsewhere ({@link Followers}):
     * each node's base gives up what they add in this layout, and they follow the layout from then on.
     */
    public LoadModel withFollowers(Followers cpuFollowers, Followers diskFollowers) {
        Followers[] f = {cpuFollowers, diskFollowers};
        double[] bc = baseCpu.clone();
        double[] bd = baseDisk.clone();
        for (Dimension d : Dimension.values()) {
            if (f[d.ordinal()] != null) {
                double[] replica = replicas(d, f[d.ordinal()], speed, regions);
                double[] base = d == Dimension.CPU ? bc : bd;
                for (int j = 0; j < base.length; j++) {
                    base[j] -= replica[j];
                }
            }
        }
        return new LoadModel(nodes, regions, bc, bd, cache, speed, f, costs);
    }

    /**
     * What node j applies in d for region r as a replica while r is led elsewhere: leading r there
     * saves it this much (0 without followers).
     */
    public double replicaAt(RegionLoad r, Dimension d, int j) {
        Followers f = followers[d.ordinal()];
        return f == null ? 0 : f.at(j, f.weight(r.region())) * speedIn(d, j);
    }

    /**
     * What node k applies more in d for region r's replicas once r is led by {@code to} instead of
     * {@code from}, beside {@link #replicaAt} ({@link Followers#spread}); 0 without followers.
     */
    public double replicaSpread(RegionLoad r, Dimension d, int k, int from, int to) {
        Followers f = followers[d.ordinal()];
        return f == null ? 0 : f.spread(k, from, to, f.weight(r.region())) * speedIn(d, k);
    }

    /** Whether moving a region from {@code from} to {@code to} changes what every node applies for its replicas in d. */
    public boolean replicasSpread(Dimension d, int from, int to) {
        Followers f = followers[d.ordinal()];
        return f != null && f.spreads(from, to);
    }

    private double speedIn(Dimension d, int j) {
        return speed[d.ordinal()] != null ? speed[d.ordinal()][j] : 1;
    }

    /** The nodes this model runs at a speed of their own, in either dimension, as load of their own. */
    public List<OwnLoad> ownSpeeds() {
        List<OwnLoad> out = new ArrayList<>();
        for (int j = 0; j < nodes.size(); j++) {
            OwnLoad.Kind cpu = speedIn(Dimension.CPU, j) != 1 ? OwnLoad.Kind.SPEED : null;
            OwnLoad.Kind disk = speedIn(Dimension.DISK, j) != 1 ? OwnLoad.Kind.SPEED : null;
            if (cpu != null || disk != null) {
                out.add(new OwnLoad(nodes.get(j).id(), cpu, disk));
            }
        }
        return out;
    }

    /**
     * A model of some of these nodes with some of their regions (the rest folded into the bases),
     * keeping this one's block cache: moves among the regions kept change a node's disk as the
     * cache model says of them (an adapter pinning a few system regions this way leaves their reads
     * out of the cache's sums).
     */
    public LoadModel restricted(List<Node> kept, List<RegionLoad> movable, double[] keptBaseCpu, double[] keptBaseDisk) {
        double[][] keptSpeed = new double[2][];
        for (Dimension d : Dimension.values()) {
            double[] in = speed[d.ordinal()];
            keptSpeed[d.ordinal()] = in == null ? null : kept.stream().mapToDouble(n -> in[nodeIndex(n.id())]).toArray();
        }
        int[] at = kept.stream().mapToInt(n -> nodeIndex(n.id())).toArray();
        Followers[] f = new Followers[2];
        double[][] bases = {keptBaseCpu.clone(), keptBaseDisk.clone()};
        for (Dimension d : Dimension.values()) {
            if (followers[d.ordinal()] != null) {
                f[d.ordinal()] = followers[d.ordinal()].on(at);
                fixedReplicas(d, at, movable, bases[d.ordinal()]);
            }
        }
        LoadModel m = new LoadModel(kept, movable, bases[0], bases[1], null, keptSpeed, f, costs);
        return cache == null ? m : m.withCache(cache.model());
    }

    /**
     * Adds to each kept node's base what it applies for the regions left out of the restricted
     * model (they lead where they are), so that only the movable regions' replicas follow moves.
     */
    private void fixedReplicas(Dimension d, int[] kept, List<RegionLoad> movable, double[] base) {
        java.util.Set<String> moving = new java.util.HashSet<>();
        movable.forEach(r -> moving.add(r.id()));
        List<RegionLoad> fixed = regions.stream().filter(r -> !moving.contains(r.id())).toList();
        double[] replica = replicas(d, followers[d.ordinal()], speed, fixed);
        for (int i = 0; i < kept.length; i++) {
            base[i] += replica[kept[i]];
        }
    }

    /** The same loads; another layout changes a node's disk as {@code model} says ({@link CacheModel}). */
    public LoadModel withCache(CacheModel model) {
        List<List<io.libra.core.model.Region>> on = byNode();
        double[] modelled = new double[nodes.size()];
        for (int j = 0; j < modelled.length; j++) {
            modelled[j] = model.nodeDisk(on.get(j));
        }
        return new LoadModel(nodes, regions, baseCpu, baseDisk, new Cache(model, disk.clone(), modelled,
                speed[Dimension.DISK.ordinal()]), speed,
                followers, costs);
    }

    /** The same loads, shared among regions by {@code by}: splits share a region's load by it too. */
    public LoadModel withCosts(RegionCosts by) {
        return new LoadModel(nodes, regions, baseCpu, baseDisk, cache, speed, followers, by);
    }

    /** The cost that shared the node totals among regions, or {@code otherwise} when none was recorded. */
    public RegionCosts costs(RegionCosts otherwise) {
        return costs == null ? otherwise : costs;
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
        return new LoadModel(nodes, moving, bc, bd, cache, speed, followers, costs);
    }

    /**
     * The same loads where a unit of region work costs {@code speeds[j]} in d on node j, relative to
     * the mean node: a region's load in d scales by the ratio of its destination's speed to its node's.
     */
    public LoadModel withSpeeds(Dimension d, double[] speeds) {
        double[][] next = speed.clone();
        next[d.ordinal()] = speeds.clone();
        double[][] bases = {baseCpu.clone(), baseDisk.clone()};
        Followers f = followers[d.ordinal()];
        if (f != null) {
            // the replica writes a node applies run at its speed too; its load in this layout stays as measured
            double[] before = replicas(d, f, speed, regions);
            double[] after = replicas(d, f, next, regions);
            double[] base = bases[d.ordinal()];
            for (int j = 0; j < base.length; j++) {
                base[j] += before[j] - after[j];
            }
        }
        return new LoadModel(nodes, regions, bases[0], bases[1], cache, next, followers, costs);
    }

    /** Region r's CPU were it on node j (its own CPU on its node). */
    public double cpuOn(RegionLoad r, int j) {
        return r.cpu() * speedRatio(Dimension.CPU, nodeIndex(r.node()), j);
    }

    /** Region r's disk were it on node j (its own disk on its node). */
    public double diskOn(RegionLoad r, int j) {
        return r.disk() * speedRatio(Dimension.DISK, nodeIndex(r.node()), j);
    }

    /** What a region's load in d on node {@code from} is multiplied by on node {@code to}. */
    public double speedRatio(Dimension d, int from, int to) {
        double[] in = speed[d.ordinal()];
        return in == null ? 1 : in[to] / in[from];
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
