package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Shares each node's measured load among its regions (§IV-A): a node keeps a base that does not
 * move with its regions, and the rest goes to its regions in proportion to their cost. A region
 * the adapter measured keeps its measured load when every region of its node was measured and
 * together they explain at least {@link #MIN_COVERAGE} of the node's load.
 */
final class LoadSharing {
    /**
     * Below this share of a node's load, its regions' measured figures are set aside for the cost
     * model: taking them would declare most of the node's load an immovable base on the evidence of
     * a sample (a RegionServer whose WAL and flush writes run outside the sampled handler threads
     * showed 0.3% of its disk measured, and Libra then found no region worth moving).
     */
    static final double MIN_COVERAGE = 0.5;
    /** A region's relative cost in one dimension. */
    interface RegionCost {
        double of(Region r);
    }

    /** The cost of a region's counters. */
    static RegionCost byCounters(ToDoubleFunction<RegionCounters> cost) {
        return r -> cost.applyAsDouble(r.counters());
    }

    /**
     * How one dimension is shared: the cost that weighs regions and the base each node keeps, a
     * background per node of mean size (each node's by the {@link BackgroundShape}) plus its own offset.
     */
    record Rule(RegionCost cost, double background, NodeBackgrounds own,
                java.util.function.Function<ClusterSnapshot, Followers> followers, BackgroundShape shape) {
        Rule(RegionCost cost, double background) {
            this(cost, background, NodeBackgrounds.NONE);
        }

        Rule(RegionCost cost, double background, NodeBackgrounds own) {
            this(cost, background, own, s -> null, BackgroundShape.CAPACITY);
        }

        /** A node of its own speed runs its share of the background at that speed too. */
        double base(Node node, double size) {
            return own.speed(node.id()) * background * size + own.of(node.id());
        }
    }

    private LoadSharing() {
    }

    static LoadModel share(ClusterSnapshot s, Rule cpu, Rule disk) {
        List<Node> nodes = s.nodes();
        Map<String, Integer> index = new HashMap<>(nodes.size() * 2);
        for (int j = 0; j < nodes.size(); j++) {
            index.put(nodes.get(j).id(), j);
        }
        int[] at = new int[s.regions().size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = index.get(s.regions().get(i).node());
        }
        Followers cpuFollowers = cpu.followers().apply(s);
        Followers diskFollowers = disk.followers().apply(s);
        Shares c = Shares.of(s, at, Dimension.CPU, cpu, replicas(s, index, cpuFollowers));
        Shares d = Shares.of(s, at, Dimension.DISK, disk, replicas(s, index, diskFollowers));
        List<RegionLoad> loads = new ArrayList<>(at.length);
        for (int i = 0; i < at.length; i++) {
            loads.add(new RegionLoad(s.regions().get(i), c.region[i], d.region[i]));
        }
        LoadModel model = new LoadModel(nodes, loads, c.base, d.base);
        return cpuFollowers == null && diskFollowers == null ? model : model.withFollowers(cpuFollowers, diskFollowers);
    }

    /** Per node, the replica writes it applies for regions led elsewhere in this window; zeros without followers. */
    private static double[] replicas(ClusterSnapshot s, Map<String, Integer> index, Followers f) {
        return f == null ? new double[s.nodes().size()] : f.loads(s.regions(), index::get);
    }

    /** Whether every node with regions shares its load in d by its regions' measured figures. */
    static boolean allMeasured(ClusterSnapshot s, Dimension d) {
        if (s.regions().isEmpty() || !everyRegionMeasured(s, d)) {
            return false;
        }
        Coverage c = Coverage.of(s, d);
        java.util.Set<String> withRegions = new java.util.HashSet<>();
        s.regions().forEach(r -> withRegions.add(r.node()));
        for (int j = 0; j < c.measured().length; j++) {
            Node node = s.nodes().get(j);
            if (withRegions.contains(node.id()) && !c.enough(j, node.measured(d))) {
                return false;
            }
        }
        return true;
    }

    /** Else a node with regions has one unmeasured, so its figures are incomplete: the answer without a map per region. */
    private static boolean everyRegionMeasured(ClusterSnapshot s, Dimension d) {
        for (Region r : s.regions()) {
            if (!r.measured().has(d)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The nodes whose regions were all measured in d but explain too little of their load to be
     * used, as one clause ("measured per region set aside on 2 node(s): it explains at most 0.3%
     * of their load, 50% needed"); empty when there are none.
     */
    static String setAside(ClusterSnapshot s, Dimension d) {
        Coverage c = Coverage.of(s, d);
        int count = 0;
        double most = 0;
        for (int j = 0; j < c.measured().length; j++) {
            double load = s.nodes().get(j).measured(d);
            if (c.complete()[j] && load > 0 && !c.enough(j, load)) {
                count++;
                most = Math.max(most, c.measured()[j] / load);
            }
        }
        return count == 0 ? "" : String.format(java.util.Locale.ROOT, "measured per region set aside on %d node(s): it "
                + "explains at most %.1f%% of their load, %.0f%% needed", count, 100 * most, 100 * MIN_COVERAGE);
    }

    /** Per node, the sum of its regions' measured figures in d, and whether every one of its regions has one. */
    private record Coverage(double[] measured, boolean[] complete) {
        static Coverage of(ClusterSnapshot s, Dimension d) {
            Map<String, Integer> index = new HashMap<>(s.nodes().size() * 2);
            for (int j = 0; j < s.nodes().size(); j++) {
                index.put(s.nodes().get(j).id(), j);
            }
            int[] at = new int[s.regions().size()];
            for (int i = 0; i < at.length; i++) {
                at[i] = index.get(s.regions().get(i).node());
            }
            return of(s, at, d);
        }

        static Coverage of(ClusterSnapshot s, int[] at, Dimension d) {
            double[] measured = new double[s.nodes().size()];
            boolean[] complete = new boolean[measured.length];
            java.util.Arrays.fill(complete, true);
            for (int i = 0; i < at.length; i++) {
                Region r = s.regions().get(i);
                if (r.measured().has(d)) {
                    measured[at[i]] += r.measured().of(d);
                } else {
                    complete[at[i]] = false;
                }
            }
            return new Coverage(measured, complete);
        }

        /** Whether node j's measured figures are complete and explain enough of its {@code load}. */
        boolean enough(int j, double load) {
            return complete[j] && measured[j] > 0 && measured[j] >= MIN_COVERAGE * load;
        }
    }

    private record Shares(double[] region, double[] base) {
        static Shares of(ClusterSnapshot s, int[] at, Dimension d, Rule rule, double[] replicas) {
            int n = s.nodes().size();
            List<Region> regions = s.regions();
            double[] weight = new double[regions.size()];
            double[] total = new double[n];
            for (int i = 0; i < weight.length; i++) {
                weight[i] = rule.cost().of(regions.get(i));
                total[at[i]] += weight[i];
            }
            Coverage coverage = Coverage.of(s, at, d);
            double[] measured = coverage.measured();
            double[] base = new double[n];
            double[] scale = new double[n];
            double[] size = rule.shape().sizes(s, d);
            boolean[] byMeasure = new boolean[n];
            for (int j = 0; j < n; j++) {
                double load = s.nodes().get(j).measured(d);
                byMeasure[j] = coverage.enough(j, load);
                if (byMeasure[j]) {
                    scale[j] = Math.min(1, load / measured[j]);
                    base[j] = load - measured[j] * scale[j];
                } else {
                    Node node = s.nodes().get(j);
                    double own = rule.base(node, size[j]) + replicas[j] * rule.own().speed(node.id());
                    base[j] = total[j] > 0 ? Math.min(load, Math.max(0, own)) : load;
                    scale[j] = total[j] > 0 ? (load - base[j]) / total[j] : 0;
                }
            }
            double[] region = new double[weight.length];
            for (int i = 0; i < weight.length; i++) {
                int j = at[i];
                region[i] = byMeasure[j] ? regions.get(i).measured().of(d) * scale[j] : weight[i] * scale[j];
            }
            return new Shares(region, base);
        }
    }
}
