package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The windows as the cost fit sees them: per node and window, its measured totals and the summed
 * features of its regions. The regions are summed once per window; each background shape
 * ({@link BackgroundShape}) only sets the per-node features, so trying both costs no second pass
 * over a hundred thousand regions.
 */
final class NodeSamples {
    private final List<Summed> windows;

    private NodeSamples(List<Summed> windows) {
        this.windows = windows;
    }

    /** One window's regions summed per node, what came to each node from each other, and its replica writes. */
    private record Summed(ClusterSnapshot window, Map<String, double[]> byNode, Map<String, Arrivals> arrived,
                          double[] cpuReplicas, double[] diskReplicas) {
    }

    static NodeSamples of(List<ClusterSnapshot> windows, CostFeatures features, EstimationConfig config) {
        List<Summed> out = new ArrayList<>(windows.size());
        for (int w = 0; w < windows.size(); w++) {
            ClusterSnapshot s = windows.get(w);
            Map<String, String> before = w == 0 ? Map.of() : windows.get(w - 1).placement();
            out.add(summed(s, before, features, config));
        }
        return new NodeSamples(out);
    }

    private static Summed summed(ClusterSnapshot s, Map<String, String> before, CostFeatures features,
                                 EstimationConfig config) {
        Map<String, double[]> byNode = new HashMap<>(s.nodes().size() * 2);
        for (Node n : s.nodes()) {
            byNode.put(n.id(), new double[CostFeatures.count()]);
        }
        // in region order, so each node's arrivals are summed and laid out alike run to run
        Map<String, Map<String, double[]>> arrived = new HashMap<>();
        for (Region r : s.regions()) {
            features.add(r.counters(), byNode.get(r.node()));
            String from = before.get(r.id());
            if (from != null && !from.equals(r.node())) {
                features.add(r.counters(), arrived.computeIfAbsent(r.node(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(from, k -> new double[CostFeatures.count()]));
            }
        }
        Map<String, Arrivals> flat = new HashMap<>(arrived.size() * 2);
        arrived.forEach((node, byFrom) -> flat.put(node, Arrivals.of(byFrom)));
        return new Summed(s, byNode, flat, replicas(s, byNode, Dimension.CPU, config),
                replicas(s, byNode, Dimension.DISK, config));
    }

    /** One sample per node per window, each dimension's background in {@code shapes}. */
    List<NodeSample> in(BackgroundShape.Both shapes) {
        List<NodeSample> out = new ArrayList<>();
        for (int w = 0; w < windows.size(); w++) {
            Summed sum = windows.get(w);
            ClusterSnapshot s = sum.window();
            double[] cpuSize = shapes.cpu().sizes(s, Dimension.CPU);
            double[] diskSize = shapes.disk().sizes(s, Dimension.DISK);
            for (int j = 0; j < s.nodes().size(); j++) {
                Node n = s.nodes().get(j);
                double[] x = sum.byNode().get(n.id());
                out.add(new NodeSample(n.id(), w, n.cpuUsage(), n.diskBytesPerSec(),
                        perNode(x, cpuSize[j], sum.cpuReplicas()[j]), perNode(x, diskSize[j], sum.diskReplicas()[j]),
                        sum.arrived().getOrDefault(n.id(), Arrivals.NONE)));
            }
        }
        return out;
    }

    /** A node's features with its per-node ones: its size, and the replica writes it applies ({@link Followers}). */
    private static double[] perNode(double[] x, double size, double replicas) {
        double[] out = x.clone();
        out[CostFeatures.BACKGROUND] = size;
        out[CostFeatures.FOLLOWERS] = replicas;
        return out;
    }

    /**
     * Per node in window s, the replica writes it applies per unit of φ ({@link Followers}), the
     * writes weighed by the mapping ({@link CostFeatures#replicated}); zeros where the window cannot
     * show followers ({@link Followers#sizes}).
     */
    private static double[] replicas(ClusterSnapshot s, Map<String, double[]> byNode, Dimension d,
                                     EstimationConfig config) {
        double[] size = Followers.sizes(s, d);
        if (size.length == 0) {
            return new double[s.nodes().size()];
        }
        double[] prior = CostFeatures.prior(d, config);
        double[] led = new double[size.length];
        for (int j = 0; j < led.length; j++) {
            led[j] = CostFeatures.replicated(byNode.get(s.nodes().get(j).id()), prior);
        }
        return Followers.replicas(size, Arrays.stream(size).sum(), led);
    }
}
