package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.NodeForecast;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Noise suppression (§IV-A): when a node's load moved by more than {@code threshold} of the
 * cluster mean between consecutive windows, the load is in flux and a plan made now would
 * chase noise, so planning is suspended until the gap closes.
 */
public record FluctuationGuard(double threshold) {
    public static final FluctuationGuard DEFAULT = new FluctuationGuard(0.20);

    public FluctuationGuard {
        if (!(threshold > 0)) {
            throw new IllegalArgumentException("fluctuation threshold: must be > 0, got " + threshold);
        }
    }

    /** Empty when the windows agree; otherwise why planning is suspended. */
    public Optional<String> check(ClusterSnapshot previous, ClusterSnapshot current) {
        Map<String, double[]> before = new HashMap<>();
        previous.nodes().forEach(n -> before.put(n.id(), new double[] {n.measured(Dimension.CPU), n.measured(Dimension.DISK)}));
        return check(before, current, "between windows");
    }

    /**
     * Against the forecast of the plan carried out since the previous window: load the plan
     * moved on purpose is not fluctuation, only what differs from what the plan expected.
     */
    public Optional<String> check(List<NodeForecast> forecast, ClusterSnapshot current) {
        Map<String, double[]> expected = new HashMap<>();
        forecast.forEach(f -> expected.put(f.id(), new double[] {f.cpu(), f.diskBytesPerSec()}));
        return check(expected, current, "against the previous plan's forecast");
    }

    private Optional<String> check(Map<String, double[]> expected, ClusterSnapshot current, String against) {
        for (Dimension d : Dimension.values()) {
            double mean = expected.values().stream().mapToDouble(x -> x[d.ordinal()]).average().orElse(0);
            if (mean <= 0) {
                continue;
            }
            for (Node now : current.nodes()) {
                double[] before = expected.get(now.id());
                if (before == null) {
                    return Optional.of("node " + now.id() + " is new since the previous window");
                }
                double gap = Math.abs(now.measured(d) - before[d.ordinal()]) / mean;
                if (gap > threshold) {
                    return Optional.of(String.format(java.util.Locale.ROOT,
                            "%s %s load changed by %.0f%% of the mean %s (> %.0f%%)",
                            now.id(), d.label(), gap * 100, against, threshold * 100));
                }
            }
        }
        return Optional.empty();
    }
}
