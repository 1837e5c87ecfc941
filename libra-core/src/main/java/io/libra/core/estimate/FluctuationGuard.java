package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
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
        if (mean(previous, Dimension.CPU) > 0 || mean(previous, Dimension.DISK) > 0) {
            Map<String, Node> before = byId(previous);
            for (Node now : current.nodes()) {
                if (!before.containsKey(now.id())) {
                    return Optional.of("node " + now.id() + " is new since the previous window");
                }
            }
        }
        return inFlux(previous, current).entrySet().stream().findFirst().map(e -> e.getKey() + " " + e.getValue());
    }

    /**
     * Every node present in both windows whose load moved by more than the threshold (a share of
     * the previous window's mean), with why, in node order per dimension, CPU first. An adapter
     * that holds such nodes still instead of suspending the whole run uses this directly.
     */
    public Map<String, String> inFlux(ClusterSnapshot previous, ClusterSnapshot current) {
        Map<String, Node> before = byId(previous);
        Map<String, String> moving = new LinkedHashMap<>();
        for (Dimension d : Dimension.values()) {
            double mean = mean(previous, d);
            if (mean <= 0) {
                continue;
            }
            for (Node now : current.nodes()) {
                Node was = before.get(now.id());
                double gap = was == null ? 0 : Math.abs(now.measured(d) - was.measured(d)) / mean;
                if (gap > threshold) {
                    moving.putIfAbsent(now.id(), String.format(Locale.ROOT,
                            "%s load changed by %.0f%% of the mean between windows (> %.0f%%)",
                            d.label(), gap * 100, threshold * 100));
                }
            }
        }
        return moving;
    }

    private static Map<String, Node> byId(ClusterSnapshot s) {
        Map<String, Node> m = new HashMap<>(s.nodes().size() * 2);
        s.nodes().forEach(n -> m.put(n.id(), n));
        return m;
    }

    private static double mean(ClusterSnapshot s, Dimension d) {
        return s.nodes().stream().mapToDouble(n -> n.measured(d)).average().orElse(0);
    }
}
