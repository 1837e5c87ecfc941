package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How much of the load the last moves were forecast to shift did shift: per dimension, the
 * least-squares slope (through the origin) of each node's measured change since the window the
 * moves were planned on against its forecast change. Load that stays on a node whatever regions
 * it holds (replicas applying writes for regions led elsewhere, per-node work) makes moves realise
 * less than their share of the node's total, and the slope measures that share. It is only read
 * when the relation is clear (the changes line up) and the moves were large enough to tell from
 * window noise; above 1 (a cost that grows on the destination, as a block cache overflowing) it
 * is not used, since a node's base load cannot be negative.
 *
 * @param cpu  share of forecast CPU changes that were realised, in (0, 1]
 * @param disk the same for disk
 */
public record RealisedShare(double cpu, double disk) {
    /** The changes must line up this well (correlation through the origin) for the slope to be read. */
    static final double MIN_CORRELATION = 0.9;
    /** The moves must have been forecast to shift at least this share of the cluster's load. */
    static final double MIN_SHIFT = 0.05;
    /** The least share believed: below it the forecast more likely missed for another reason. */
    static final double FLOOR = 0.25;
    /** Relative tolerance for "the same Δ" (sums taken in another order). */
    static final double SAME = 1e-6;

    /**
     * The realised share of {@code previous}'s moves, planned on {@code before} and measured in
     * {@code now}; empty when the plan moved nothing or the workload itself moved (see {@link PredictionCheck}).
     */
    public static Optional<RealisedShare> of(Plan previous, ClusterSnapshot before, ClusterSnapshot now,
                                             Optional<PredictionCheck> check) {
        return of(previous, before, now, check, Optional.empty());
    }

    /**
     * As the other, against {@code replayed}'s node loads when present: the moves as the refitted
     * model says they went ({@link Hindcast#replayed}), so only what that model still misses is
     * read as load that stays behind.
     */
    public static Optional<RealisedShare> of(Plan previous, ClusterSnapshot before, ClusterSnapshot now,
                                             Optional<PredictionCheck> check, Optional<LoadModel> replayed) {
        if (previous == null || before == null || previous.actions().isEmpty() || previous.forecast().isEmpty()
                || check.isEmpty() || check.get().explainedByWorkload() || check.get().carried() || !madeOn(previous, before)) {
            return Optional.empty();
        }
        List<NodeForecast> forecast = replayed.map(LoadModel::forecast).orElse(previous.forecast());
        double cpu = slope(forecast, before, now, Dimension.CPU);
        double disk = slope(forecast, before, now, Dimension.DISK);
        return cpu >= 1 && disk >= 1 ? Optional.empty() : Optional.of(new RealisedShare(cpu, disk));
    }

    /**
     * Whether {@code previous} was planned on {@code before}: its Δ before the moves is that window's.
     * An adapter whose last kept window is not the one the plan was made on (a job that ran over
     * several windows) would otherwise compare the forecast with a window it never saw.
     */
    static boolean madeOn(Plan previous, ClusterSnapshot before) {
        return madeOn(previous, LoadModel.measuredBalance(before));
    }

    /** As {@link #madeOn(Plan, ClusterSnapshot)}, given that window's measured balance. */
    static boolean madeOn(Plan previous, Balance b) {
        if (previous.before() == null) {
            return false;
        }
        return close(b.cpuMaxOverMean(), previous.before().cpuMaxOverMean())
                && close(b.diskMaxOverMean(), previous.before().diskMaxOverMean());
    }

    private static boolean close(double a, double b) {
        return Math.abs(a - b) <= SAME * Math.max(1, Math.abs(b));
    }

    private static double slope(List<NodeForecast> forecast, ClusterSnapshot before, ClusterSnapshot now, Dimension d) {
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        double total = 0;
        double shifted = 0;
        for (NodeForecast f : forecast) {
            Optional<Node> b = before.node(f.id());
            Optional<Node> m = now.node(f.id());
            if (b.isEmpty() || m.isEmpty()) {
                continue;
            }
            double x = (d == Dimension.CPU ? f.cpu() : f.diskBytesPerSec()) - b.get().measured(d);
            double y = m.get().measured(d) - b.get().measured(d);
            sxy += x * y;
            sxx += x * x;
            syy += y * y;
            shifted += Math.abs(x);
            total += b.get().measured(d);
        }
        if (sxx <= 0 || syy <= 0 || shifted < MIN_SHIFT * total
                || sxy / Math.sqrt(sxx * syy) < MIN_CORRELATION) {
            return 1;
        }
        return Math.max(FLOOR, Math.min(1, sxy / sxx));
    }

    /** One clause for the plan's estimation detail. */
    public String describe() {
        return String.format(Locale.ROOT, "the last moves realised %.0f%% of the CPU and %.0f%% of the disk"
                + " change they forecast, so that share of each node's load moves with its regions", 100 * cpu, 100 * disk);
    }
}
