package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shares each node's measured load among its regions (§IV-A): a node keeps a base that does not
 * move with its regions, and the rest goes to its regions in proportion to their cost. A region
 * the adapter measured keeps its measured load when every region of its node was measured.
 */
final class LoadSharing {
    /** A region's relative cost in one dimension. */
    interface RegionCost {
        double of(Region r);
    }

    /** How one dimension is shared: the cost that weighs regions and the base each node keeps. */
    record Rule(RegionCost cost, double background) {
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
        Shares c = Shares.of(s, at, Dimension.CPU, cpu);
        Shares d = Shares.of(s, at, Dimension.DISK, disk);
        List<RegionLoad> loads = new ArrayList<>(at.length);
        for (int i = 0; i < at.length; i++) {
            loads.add(new RegionLoad(s.regions().get(i), c.region[i], d.region[i]));
        }
        return new LoadModel(nodes, loads, c.base, d.base);
    }

    /** Whether every region of every node with regions carries a measured figure in d. */
    static boolean allMeasured(ClusterSnapshot s, Dimension d) {
        return !s.regions().isEmpty() && s.regions().stream().allMatch(r -> r.measured().has(d));
    }

    private record Shares(double[] region, double[] base) {
        static Shares of(ClusterSnapshot s, int[] at, Dimension d, Rule rule) {
            int n = s.nodes().size();
            List<Region> regions = s.regions();
            double[] weight = new double[regions.size()];
            double[] total = new double[n];
            double[] measured = new double[n];
            boolean[] unmeasured = new boolean[n];
            for (int i = 0; i < weight.length; i++) {
                Region r = regions.get(i);
                weight[i] = rule.cost().of(r);
                total[at[i]] += weight[i];
                if (r.measured().has(d)) {
                    measured[at[i]] += r.measured().of(d);
                } else {
                    unmeasured[at[i]] = true;
                }
            }
            double[] base = new double[n];
            double[] scale = new double[n];
            boolean[] byMeasure = new boolean[n];
            for (int j = 0; j < n; j++) {
                double load = s.nodes().get(j).measured(d);
                byMeasure[j] = !unmeasured[j] && measured[j] > 0;
                if (byMeasure[j]) {
                    scale[j] = Math.min(1, load / measured[j]);
                    base[j] = load - measured[j] * scale[j];
                } else {
                    base[j] = total[j] > 0 ? Math.min(load, Math.max(0, rule.background())) : load;
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
