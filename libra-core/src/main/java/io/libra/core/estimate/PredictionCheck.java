package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import java.util.Locale;
import java.util.Optional;

/**
 * Compares the previous plan's node forecast with what the nodes measured in this window. The
 * error is Σ|forecast − measured| / Σ measured in the worse dimension: in normalised load it
 * is the mean deviation of a node from where the plan said it would be. When that exceeds
 * the imbalance the plan claimed to fix (Δ before − Δ predicted), the planner's picture is
 * not good enough to act on fine differences, and the next plan is conservative.
 *
 * @param error        relative forecast error in the worse dimension
 * @param dimension    that dimension
 * @param claimed      the imbalance the previous plan claimed to fix
 * @param conservative whether the next plan must be conservative
 */
public record PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative) {

    /** Empty when the previous plan had no forecast or shares no node with this window. */
    public static Optional<PredictionCheck> of(Plan previous, ClusterSnapshot now) {
        if (previous == null || previous.forecast().isEmpty()) {
            return Optional.empty();
        }
        double[] err = new double[2];
        double[] total = new double[2];
        int matched = 0;
        for (NodeForecast f : previous.forecast()) {
            Optional<Node> n = now.node(f.id());
            if (n.isEmpty()) {
                continue;
            }
            matched++;
            err[0] += Math.abs(f.cpu() - n.get().cpuUsage());
            err[1] += Math.abs(f.diskBytesPerSec() - n.get().diskBytesPerSec());
            total[0] += n.get().cpuUsage();
            total[1] += n.get().diskBytesPerSec();
        }
        if (matched == 0) {
            return Optional.empty();
        }
        double cpu = total[0] > 0 ? err[0] / total[0] : 0;
        double disk = total[1] > 0 ? err[1] / total[1] : 0;
        double claimed = claimed(previous);
        double e = Math.max(cpu, disk);
        return Optional.of(new PredictionCheck(e, cpu >= disk ? Dimension.CPU : Dimension.DISK, claimed, e > claimed));
    }

    private static double claimed(Plan p) {
        if (p.before() == null || p.predicted() == null) {
            return 0;
        }
        return Math.max(0, p.before().imbalanceDegree() - p.predicted().imbalanceDegree());
    }

    /** One line for plans, logs and /status. */
    public String describe() {
        String base = String.format(Locale.ROOT, "last plan's forecast was off by %.1f%% (%s); it claimed to fix %.1f%%",
                100 * error, dimension.label(), 100 * claimed);
        return conservative ? base + ": conservative, only actions whose benefit exceeds that error" : base;
    }
}
