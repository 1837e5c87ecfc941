package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.Locale;
import java.util.Optional;

/**
 * Compares the previous plan's node forecast with what the nodes measured in this window. The
 * error is Σ|forecast − measured| / Σ measured in the worse dimension: in normalised load it
 * is the mean deviation of a node from where the plan said it would be. When that exceeds
 * the imbalance the plan claimed to fix (Δ before − Δ predicted), the planner's picture is
 * not good enough to act on fine differences, and the next plan is conservative.
 *
 * <p>A plan that moved nothing forecasts "as now", so checking it measures window noise only,
 * not the model. It carries the error of the last check before it instead, so one quiet round
 * does not make the planner forget a miss and act on the same wrong picture again.
 *
 * @param error        relative forecast error in the worse dimension
 * @param dimension    that dimension
 * @param claimed      the imbalance the previous plan claimed to fix
 * @param conservative whether the next plan must be conservative
 * @param carried      whether {@code error} was carried from the check before a plan that moved nothing
 */
public record PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative, boolean carried) {

    /** A check of the previous plan's own forecast. */
    public PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative) {
        this(error, dimension, claimed, conservative, false);
    }

    /**
     * Empty when the previous plan had no forecast or shares no node with this window.
     *
     * @param lambda the planner's λ: an actionless plan that left Δ above it was held back, and carries its error
     */
    public static Optional<PredictionCheck> of(Plan previous, ClusterSnapshot now, double lambda) {
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
        Dimension d = cpu >= disk ? Dimension.CPU : Dimension.DISK;
        double earlier = carried(previous, lambda);
        if (earlier > e) {
            return Optional.of(new PredictionCheck(earlier, d, claimed, earlier > claimed, true));
        }
        return Optional.of(new PredictionCheck(e, d, claimed, e > claimed, false));
    }

    /**
     * The error a plan was made under when it moved nothing and left Δ above λ (held back as
     * noise, or stuck), or 0. A plan that found the cluster balanced, or was suspended because
     * load was in flux, says nothing about the model.
     */
    private static double carried(Plan p, double lambda) {
        boolean heldBack = p.status() == PlanStatus.BALANCED || p.status() == PlanStatus.STUCK;
        if (!p.actions().isEmpty() || !heldBack || p.before() == null || !(p.before().imbalanceDegree() > lambda)
                || p.estimation() == null || Double.isNaN(p.estimation().lastPredictionError())) {
            return 0;
        }
        return p.estimation().lastPredictionError();
    }

    private static double claimed(Plan p) {
        if (p.before() == null || p.predicted() == null) {
            return 0;
        }
        return Math.max(0, p.before().imbalanceDegree() - p.predicted().imbalanceDegree());
    }

    /** One line for plans, logs and /status. */
    public String describe() {
        String base = carried
                ? String.format(Locale.ROOT, "the last plan moved nothing; the forecast before it was off by %.1f%%", 100 * error)
                : String.format(Locale.ROOT, "last plan's forecast was off by %.1f%% (%s); it claimed to fix %.1f%%",
                        100 * error, dimension.label(), 100 * claimed);
        return conservative ? base + ": conservative, only actions whose benefit exceeds that error" : base;
    }
}
