package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
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
        for (Dimension d : Dimension.values()) {
            double mean = mean(previous, d);
            if (mean <= 0) {
                continue;
            }
            for (Node now : current.nodes()) {
                Optional<Node> before = previous.node(now.id());
                if (before.isEmpty()) {
                    return Optional.of("node " + now.id() + " is new since the previous window");
                }
                double gap = Math.abs(now.measured(d) - before.get().measured(d)) / mean;
                if (gap > threshold) {
                    return Optional.of(String.format(java.util.Locale.ROOT,
                            "%s %s load changed by %.0f%% of the mean between windows (> %.0f%%)",
                            now.id(), d.label(), gap * 100, threshold * 100));
                }
            }
        }
        return Optional.empty();
    }

    private static double mean(ClusterSnapshot s, Dimension d) {
        return s.nodes().stream().mapToDouble(n -> n.measured(d)).average().orElse(0);
    }
}
