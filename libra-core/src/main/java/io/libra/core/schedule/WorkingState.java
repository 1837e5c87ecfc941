package io.libra.core.schedule;

import io.libra.core.estimate.GrossFlow;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionCosts;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import io.libra.core.split.RegionSplitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The mutable state one planning run works on: node loads, which region sits where, and the
 * actions taken so far. Loads update incrementally after each action, as the paper's loop
 * requires ("update loads after each accepted action"); listeners (node heaps) hear of every
 * node whose load changed.
 */
final class WorkingState {
    private static final int CPU = 0;
    private static final int DISK = 1;

    private final LoadModel model;
    /** Whether a region's second return to a node is refused without a learnt block cache too ({@link #refuseCycles}). */
    private boolean refuseCycles;
    private final RegionCosts costs;
    private final RegionSplitter splitter;
    private final int nodes;
    private final double[][] load;
    private final double[][] target;
    private final List<RegionLoad> regions;
    private final RegionIndex index;
    private final List<Action> actions = new ArrayList<>();
    private final List<java.util.function.IntConsumer> listeners = new ArrayList<>();
    /** Per region index, the nodes it left in this run, in order ({@link #returnsTwice}, {@link #movedInRun}). */
    private final Map<Integer, List<Integer>> left = new HashMap<>();
    private final PlacementRule placement;
    /** Per dimension, the node ids the estimate found load of their own on. */
    private final List<java.util.Set<String>> own = List.of(new java.util.HashSet<>(), new java.util.HashSet<>());
    /** Total disk at the start and now; they differ when a learnt block cache or replica writes make moves change it. */
    private final double diskTotal0;
    private double diskTotal;
    /** Total CPU at the start and now; they differ when nodes run region work at different speeds or apply replica writes. */
    private final double cpuTotal0;
    private double cpuTotal;
    /** What the moves so far passed through each node ({@link GrossFlow}). */
    private final GrossFlow flows;

    WorkingState(LoadModel model, PlanningContext context) {
        this(model, context, GrossFlow.none(model.nodeCount()));
    }

    /** @param flows the gross flow of the actions planned before this run, which this run's moves add to */
    WorkingState(LoadModel model, PlanningContext context, GrossFlow flows) {
        this.model = model;
        this.flows = flows.copy();
        this.costs = model.costs(RegionCosts.mapping(context.estimation()));
        this.splitter = new RegionSplitter(costs);
        this.placement = context.placement();
        for (io.libra.core.plan.OwnLoad o : context.ownLoad()) {
            for (Dimension d : Dimension.values()) {
                if (o.kind(d) != null) {
                    own.get(d.ordinal()).add(o.id());
                }
            }
        }
        this.nodes = model.nodeCount();
        this.load = new double[2][nodes];
        this.target = new double[2][nodes];
        for (int j = 0; j < nodes; j++) {
            for (Dimension d : Dimension.values()) {
                load[d.ordinal()][j] = model.load(j, d);
                target[d.ordinal()][j] = model.target(j, d);
            }
        }
        this.diskTotal0 = model.total(Dimension.DISK);
        this.diskTotal = diskTotal0;
        this.cpuTotal0 = model.total(Dimension.CPU);
        this.cpuTotal = cpuTotal0;
        this.regions = new ArrayList<>(model.regions());
        this.index = new RegionIndex(nodes, regions.size());
        for (int r = 0; r < regions.size(); r++) {
            index.add(r, model.nodeIndex(regions.get(r).node()));
        }
    }

    /**
     * Refuses a region's return to a node it has left twice in this run whatever the model: a run
     * that may raise a peak takes the pair peak's descent back move by move (`cache-skew` seed 1
     * under `disk-speed`: 13,584 actions, the cap, for nothing kept).
     */
    void refuseCycles() {
        refuseCycles = true;
    }

    /** Called with every node whose load changes, e.g. {@code heap::update}. */
    void listen(java.util.function.IntConsumer onNodeChange) {
        listeners.add(onNodeChange);
    }

    int nodeCount() {
        return nodes;
    }

    String nodeId(int j) {
        return model.nodes().get(j).id();
    }

    /** Whether the store's placement rule lets region r go to node dst now. */
    boolean allowed(int r, int dst) {
        return !returnsTwice(r, dst) && placement.refuseMove(regions.get(r).id(), nodeId(dst)) == null;
    }

    /**
     * Whether moving r to dst takes it back to a node it has left twice in this run. With a learnt
     * block cache a move changes both nodes' disk by more than the region's share the conditions
     * weighed, so regions can go back and forth until the action cap (16 × (regions + nodes)):
     * 82 s for 2,947 net actions on 1,000 nodes × 100,000 regions. One return can mend what the
     * caches did since; a second to the same node is a cycle, and that move is not made (ending the
     * whole run there instead left a hot node's regions unsplit: ycsb-e seed 23, CPU 1.22). Without a
     * cache, nodes of speeds of their own and the pair peak's descent do the same in Libra's runs
     * ({@link #refuseCycles}); the baselines are left to cycle as they would.
     */
    private boolean returnsTwice(int r, int dst) {
        List<Integer> from = model.cache().isPresent() || refuseCycles ? left.get(r) : null;
        return from != null && from.stream().filter(n -> n == dst).count() >= 2;
    }

    /** Whether the estimate found load of node j's own in d: a speed or a background no region carries. */
    boolean hasOwnLoad(int j, Dimension d) {
        return own.get(d.ordinal()).contains(nodeId(j));
    }

    /** Whether the store's placement rule lets region r be split. */
    boolean splittable(int r) {
        return placement.refuseSplit(regions.get(r).id()) == null;
    }

    /**
     * Whether this run moved region r. Such a region is no split candidate: a store refuses to
     * split a region while it is being moved, and then has no halves to move on. Splits at a
     * destination (a learnt block cache's moves heating it) left 170 of 566 actions refused in
     * calm seed 10 under disk-speed, the plan half done, true Max/Mean 1.43/1.99.
     */
    boolean movedInRun(int r) {
        return left.containsKey(r);
    }

    /** A'_j or B'_j. */
    double normalised(int j, Dimension d) {
        return Normalisation.normalised(load[d.ordinal()][j], target(j, d));
    }

    /**
     * Node j's target: its share of the total, which a learnt block cache (disk) or nodes of
     * different speeds (CPU) change as regions move (targets are proportional to the total, so one
     * factor keeps them all up to date).
     */
    private double target(int j, Dimension d) {
        double total0 = d == Dimension.CPU ? cpuTotal0 : diskTotal0;
        double total = d == Dimension.CPU ? cpuTotal : diskTotal;
        return total0 > 0 ? target[d.ordinal()][j] * total / total0 : target[d.ordinal()][j];
    }

    /** δ_j. */
    double deviation(int j) {
        return Normalisation.deviation(normalised(j, Dimension.CPU), normalised(j, Dimension.DISK));
    }

    /** The critical dimension of node j: the one that dictates δ_j. */
    Dimension critical(int j) {
        return normalised(j, Dimension.CPU) > normalised(j, Dimension.DISK) ? Dimension.CPU : Dimension.DISK;
    }

    /** α'_i or β'_i measured against node j's target, as region r would load node j. */
    double share(int r, Dimension d, int j) {
        return Normalisation.share(loadOn(r, d, j), target(j, d));
    }

    /**
     * What region r adds to node j's load in d by leading there: its own load (scaled by the
     * nodes' speeds in d) less the replica writes j applies for it while it is led elsewhere.
     */
    private double loadOn(int r, Dimension d, int j) {
        return own(r, d, j) - model.replicaAt(regions.get(r), d, j);
    }

    /** Region r's own load in d were it on node j: it scales with the nodes' speeds in d. */
    private double own(int r, Dimension d, int j) {
        return regions.get(r).of(d) * model.speedRatio(d, index.nodeOf(r), j);
    }

    RegionLoad region(int r) {
        return regions.get(r);
    }

    int nodeOf(int r) {
        return index.nodeOf(r);
    }

    /**
     * Live regions on node j, heaviest first in dimension d, ties by index. Sorted as packed
     * longs (the load as a float, inverted, above the index) so the sort runs on primitives.
     */
    int[] regionsByLoad(int j, Dimension d) {
        int[] rs = index.members(j);
        long[] keys = new long[rs.length];
        for (int k = 0; k < rs.length; k++) {
            int bits = Float.floatToIntBits((float) Math.max(0, regions.get(rs[k]).of(d)));
            keys[k] = ((long) (Integer.MAX_VALUE - bits) << 32) | rs[k];
        }
        Arrays.sort(keys);
        int[] out = new int[rs.length];
        for (int k = 0; k < rs.length; k++) {
            out[k] = (int) keys[k];
        }
        return out;
    }

    int[] regionsOn(int j) {
        return index.members(j);
    }

    List<Action> actions() {
        return actions;
    }

    /** Max over nodes of max(A', B') − 1, scanning every node. */
    double imbalanceDegree() {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < nodes; j++) {
            max = Math.max(max, deviation(j));
        }
        return max;
    }

    /**
     * Δ with each node's normalised loads raised by the forecast error its gross flow is expected to
     * bring, {@code rate} per unit ({@link SchedulerConfig#flowError}): what a prefix can be counted on to
     * leave. Equal to {@link #imbalanceDegree} when the rate is 0.
     */
    double atRisk(double rate) {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < nodes; j++) {
            max = Math.max(max, Normalisation.deviation(normalised(j, Dimension.CPU) + rate * flows.through(j, Dimension.CPU),
                    normalised(j, Dimension.DISK) + rate * flows.through(j, Dimension.DISK)));
        }
        return max;
    }

    /** Moves the candidate's region; the reason lists the conditions passed, each explained before the move. */
    void move(Candidate c, List<MigrationCondition> passed, String trigger) {
        String note = Notes.passed(trigger, passed, c);
        move(c.region(), c.destination(), c.critical(), passed.stream().map(MigrationCondition::constraint).toList(), note);
    }

    private void move(int r, int dst, Dimension critical, List<io.libra.core.plan.Constraint> passed, String note) {
        int src = index.nodeOf(r);
        left.computeIfAbsent(r, k -> new ArrayList<>()).add(src);
        double srcBefore = deviation(src);
        double dstBefore = deviation(dst);
        shift(r, src, dst);
        RegionLoad g = regions.get(r);
        Reason why = new Reason(critical, passed, new NodeDeviation(nodeId(src), srcBefore, deviation(src)),
                new NodeDeviation(nodeId(dst), dstBefore, deviation(dst)), note);
        actions.add(new MoveAction(g.id(), nodeId(src), nodeId(dst), g.region().sizeBytes(), why));
    }

    private void shift(int r, int src, int dst) {
        RegionLoad g = regions.get(r);
        double cpu = own(r, Dimension.CPU, dst);
        double disk = own(r, Dimension.DISK, dst);
        double[] change = new double[2];
        for (Dimension d : Dimension.values()) {
            double leaves = loadOn(r, d, src);
            double arrives = loadOn(r, d, dst);
            flows.add(d, src, leaves, target(src, d));
            flows.add(d, dst, arrives, target(dst, d));
            load[d.ordinal()][src] -= leaves;
            load[d.ordinal()][dst] += arrives;
            change[d.ordinal()] = arrives - leaves;
        }
        for (Dimension d : Dimension.values()) {
            change[d.ordinal()] += spread(g, d, src, dst);
        }
        cpuTotal += change[CPU];
        diskTotal += change[DISK];
        index.move(r, dst);
        regions.set(r, new RegionLoad(g.region().onNode(nodeId(dst)), cpu, disk));
        cached(src);
        cached(dst);
        placement.moved(g.id(), nodeId(dst));
        changed(src);
        changed(dst);
    }

    /**
     * What the nodes' shares of the replicas of region g change by, on every node, once it is led
     * by dst instead of src ({@link LoadModel#replicaSpread}); returns their sum.
     */
    private double spread(RegionLoad g, Dimension d, int src, int dst) {
        if (!model.replicasSpread(d, src, dst)) {
            return 0;
        }
        double sum = 0;
        for (int k = 0; k < nodes; k++) {
            double change = model.replicaSpread(g, d, k, src, dst);
            load[d.ordinal()][k] += change;
            sum += change;
            if (k != src && k != dst) {
                changed(k);
            }
        }
        return sum;
    }

    /** The cost a split shares a region's load by ({@link RegionCosts}). */
    RegionCosts costs() {
        return costs;
    }

    /**
     * Splits region r at the key; returns the indices of the two halves, or null when the
     * smaller half would carry far less than the ratio asked for (the load sits on one key).
     */
    int[] split(int r, String key, double ratio, Dimension critical, String note) {
        RegionLoad g = regions.get(r);
        RegionSplitter.Halves h = splitter.split(g, key);
        if (degenerate(g, h, ratio, critical)) {
            return null;
        }
        int j = index.nodeOf(r);
        double dev = deviation(j);
        index.kill(r);
        int left = append(h.left(), j);
        int right = append(h.right(), j);
        if (model.cache().isPresent()) {
            cached(j);
            changed(j);
        }
        Reason why = new Reason(critical, List.of(io.libra.core.plan.Constraint.SPLIT_BOUND),
                new NodeDeviation(nodeId(j), dev, dev), null, note);
        actions.add(new SplitAction(g.id(), key, h.left().id(), h.right().id(), ratio, why));
        return new int[] {left, right};
    }

    static boolean degenerate(RegionLoad whole, RegionSplitter.Halves h, double ratio, Dimension d) {
        double w = whole.of(d);
        return w <= 0 || Math.min(h.left().of(d), h.right().of(d)) < 0.25 * Math.min(ratio, 1 - ratio) * w;
    }

    private int append(RegionLoad r, int node) {
        regions.add(r);
        int i = regions.size() - 1;
        index.add(i, node);
        return i;
    }

    /** With a learnt block cache, node j's disk is what the cache model gives its regions now. */
    private void cached(int j) {
        model.cache().ifPresent(c -> {
            int[] members = index.members(j);
            List<io.libra.core.model.Region> on = new ArrayList<>(members.length);
            for (int m : members) {
                on.add(regions.get(m).region());
            }
            double now = c.disk(j, on);
            diskTotal += now - load[DISK][j];
            load[DISK][j] = now;
        });
    }

    private void changed(int j) {
        for (java.util.function.IntConsumer l : listeners) {
            l.accept(j);
        }
    }
}
