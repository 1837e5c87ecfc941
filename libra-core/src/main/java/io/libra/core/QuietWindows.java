package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node totals of the windows since a region last moved, averaged: while nothing moves, each
 * window measures the same layout again, and their mean has less of a single window's noise.
 * Δ is a maximum over nodes, so one noisy window lifts it past the hysteresis' resume threshold
 * now and then when the mean would not (the paper filters "short-term fluctuations" with a longer
 * heartbeat; this is the same filter over the windows a planner already keeps).
 *
 * @param windows how many windows the mean is over, this one included
 * @param delta   Δ of the mean node totals
 */
public record QuietWindows(int windows, double delta) {

    /**
     * The mean over {@code now} and the newest windows of {@code history} with its nodes and layout;
     * empty when the window before it had another.
     */
    static Optional<QuietWindows> of(ClusterSnapshot now, List<ClusterSnapshot> history) {
        Map<String, String> layout = now.placement();
        Set<String> nodes = now.nodeIds();
        List<ClusterSnapshot> quiet = new ArrayList<>(List.of(now));
        for (int i = history.size() - 1; i >= 0 && alike(history.get(i), now, nodes, layout); i--) {
            quiet.add(history.get(i));
        }
        if (quiet.size() < 2) {
            return Optional.empty();
        }
        Map<String, double[]> sums = new HashMap<>();
        for (ClusterSnapshot w : quiet) {
            for (Node n : w.nodes()) {
                double[] sum = sums.computeIfAbsent(n.id(), k -> new double[2]);
                sum[0] += n.cpuUsage();
                sum[1] += n.diskBytesPerSec();
            }
        }
        List<Node> mean = new ArrayList<>(now.nodes().size());
        for (Node n : now.nodes()) {
            double[] sum = sums.get(n.id());
            mean.add(new Node(n.id(), n.cpuCores(), sum[0] / quiet.size(), sum[1] / quiet.size(), n.capacity()));
        }
        double delta = LoadModel.measuredBalance(now.withState(mean, now.regions())).imbalanceDegree();
        return Optional.of(new QuietWindows(quiet.size(), delta));
    }

    /**
     * Whether {@code w} has these {@code nodes}, each of its regions where {@code layout} has it and no
     * other, and the ring's tokens of {@code now}: a token move keeps a ring's region ids and nodes
     * but changes the arcs they stand for.
     */
    private static boolean alike(ClusterSnapshot w, ClusterSnapshot now, Set<String> nodes, Map<String, String> layout) {
        return w.regions().size() == layout.size() && w.nodeIds().equals(nodes) && w.ring().equals(now.ring())
                && w.placement().equals(layout);
    }
}
