package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Compares the previous plan's node forecast with what the nodes measured in this window. The
 * error is Σ|forecast − measured| / Σ measured in the worse dimension: in normalised load it
 * is the mean deviation of a node from where the plan said it would be. When that exceeds
 * the imbalance the plan claimed to fix (Δ before − Δ predicted), the planner's picture is
 * not good enough to act on fine differences, and the next plan is conservative.
 *
 * <p>A plan held back while Δ stayed above λ (see {@link #heldBack}) moved nothing, so a forecast
 * "as now" would measure window noise only, not the model. It repeats the forecast it was checked
 * against instead, so each quiet window checks the last moves' forecast again: a structural miss
 * (a cost the model cannot express) keeps the planner conservative, a transient one (a window
 * taken while the moved regions settled) fades as the nodes approach the forecast. A plan that
 * takes back moves measured to leave Δ worse ({@link Plan#isRevert()}) carries the failed forecast
 * on the same way, and a plan that lands where it aimed is a repeat ({@link #repeats}).
 *
 * <p>The error is a mean over nodes, and Δ a maximum: a miss concentrated on the few nodes the
 * moves touched can stay under the claim while the moves leave the cluster worse than they found
 * it. So when the previous plan was made on the last window and its moves left Δ (of the measured
 * node totals) higher than that window's, the next plan is conservative too: the model was wrong
 * about the very moves it chose, whatever the mean says.
 *
 * <p>A forecast cannot tell a model that is wrong from a workload that changed. So the check also
 * measures how far the workload itself moved since the last window ({@link WorkloadShift}, from
 * the regions' request counters alone): when that explains at least half the miss, the miss is not
 * held against the model. The check then neither makes the next plan conservative nor is carried
 * on, so a plan made on a new workload starts a fresh forecast.
 *
 * @param error        relative forecast error in the worse dimension
 * @param dimension    that dimension
 * @param claimed      the imbalance the previous plan claimed to fix
 * @param conservative whether the next plan must be conservative
 * @param carried      whether the forecast checked was carried by a plan held back since the moves it forecast
 * @param forecast     the forecast checked, which a plan held back now carries on
 * @param shift        how far the workload moved since the last window, by the regions' counters
 * @param deltaBefore  Δ of the measured node totals in the window the previous plan's moves were made on; NaN when unknown
 * @param deltaNow     Δ of the measured node totals now; NaN when {@code deltaBefore} is
 * @param refitError   how far the model refitted on this window is off, by the same measure: the larger of its
 *                     error replaying the previous plan's moves and its held-out error ({@link Hindcast}); NaN
 *                     when the moves were not replayed
 * @param change       how far the checked forecast said the nodes would move from the window the plan was made on,
 *                     Σ|forecast − then| / Σ measured in {@code dimension}: what the error was made on; NaN when unknown
 */
public record PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative, boolean carried,
                              List<NodeForecast> forecast, WorkloadShift shift, double deltaBefore, double deltaNow,
                              double refitError, double change) {
    /** The share of a miss the workload's own change must explain for the miss not to count against the model. */
    static final double EXPLAINED = 0.5;
    /** How much above its extrapolated error a smaller plan's gain must be ({@link #scaleTo}). */
    static final double STEP_MARGIN = 1.5;

    public PredictionCheck {
        forecast = List.copyOf(forecast);
        shift = shift == null ? WorkloadShift.NONE : shift;
    }

    /** A check of the previous plan's own forecast. */
    public PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative) {
        this(error, dimension, claimed, conservative, false, List.of(), WorkloadShift.NONE);
    }

    /** A check that does not know how Δ moved. */
    public PredictionCheck(double error, Dimension dimension, double claimed, boolean conservative, boolean carried,
                           List<NodeForecast> forecast, WorkloadShift shift) {
        this(error, dimension, claimed, conservative, carried, forecast, shift, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** The same check, with the refitted model's error. */
    public PredictionCheck withRefitError(double h) {
        return new PredictionCheck(error, dimension, claimed, conservative, carried, forecast, shift, deltaBefore, deltaNow, h,
                change);
    }

    /**
     * The error a conservative plan's actions must beat: the forecast's, or the refitted model's on
     * the same moves when that is lower. The miss was then the old model's: the new one, fitted on
     * the window that measured the moves, would have forecast them that closely.
     */
    public double bound() {
        return refitted() ? refitError : error;
    }

    /**
     * The share of the checked forecast's error a plan that moves the nodes by {@code planned}
     * (same measure as {@link #change}) must beat. A forecast's error grows with how far it moved
     * the nodes: each moved region's estimate errs on its own, so the node error grows as the
     * square root of what moved (independent errors add in quadrature). A larger plan must beat
     * that much more: a late plan that shaves a few hundredths off Δ with many small moves lands
     * within its own error (`byte-cpu` seed 8 under disk-speed: 52 moves after a check of 3, a
     * forecast disk Max/Mean of 1.090 that was 1.188). A smaller plan's share is an extrapolation
     * from one forecast, so it must beat {@value #STEP_MARGIN}× it, and never more than the whole
     * error (the rule without scaling); a check that made the planner conservative, or one carried
     * on by a held-back plan, is not scaled down.
     */
    public double scaleTo(double planned) {
        if (!(change > 0) || Double.isNaN(planned)) {
            return 1;
        }
        double r = Math.sqrt(planned / change);
        if (r >= 1) {
            return r;
        }
        return conservative || carried ? 1 : Math.min(1, STEP_MARGIN * r);
    }

    /**
     * Whether a plan forecasting {@code planned} aims where the carried forecast aimed: closer to it
     * (Σ|planned − carried| / Σ measured, the larger of the two dimensions) than the nodes now are
     * ({@link #error}, measured the same way). The carried forecast was the last moves'; a plan
     * that lands where they aimed repeats them on the picture that was wrong about them. Only a
     * carried check says so.
     */
    public boolean repeats(List<NodeForecast> planned, ClusterSnapshot now) {
        if (!carried || forecast.isEmpty() || planned.isEmpty()) {
            return false;
        }
        double[] apart = apart(planned, forecast, now);
        return apart != null && Math.max(apart[0], apart[1]) < error;
    }

    /** Σ|a − b| / Σ measured per dimension over the nodes all three know; null when none. */
    private static double[] apart(List<NodeForecast> a, List<NodeForecast> b, ClusterSnapshot now) {
        Map<String, NodeForecast> byId = new HashMap<>();
        b.forEach(f -> byId.put(f.id(), f));
        double[] gap = new double[2];
        double[] total = new double[2];
        boolean any = false;
        for (NodeForecast f : a) {
            NodeForecast g = byId.get(f.id());
            Optional<Node> n = now.node(f.id());
            if (g != null && n.isPresent()) {
                any = true;
                gap[0] += Math.abs(f.cpu() - g.cpu());
                gap[1] += Math.abs(f.diskBytesPerSec() - g.diskBytesPerSec());
                total[0] += n.get().cpuUsage();
                total[1] += n.get().diskBytesPerSec();
            }
        }
        return any ? new double[] {total[0] > 0 ? gap[0] / total[0] : 0, total[1] > 0 ? gap[1] / total[1] : 0} : null;
    }

    /** Whether the model refitted on this window replays the previous plan's moves closer than their forecast. */
    public boolean refitted() {
        return refitError < error;
    }

    /** As {@link #of(Plan, ClusterSnapshot, double, ClusterSnapshot)} with no earlier window to measure the workload's own change. */
    public static Optional<PredictionCheck> of(Plan previous, ClusterSnapshot now, double lambda) {
        return of(previous, now, lambda, null);
    }

    /**
     * Empty when the previous plan had no forecast or shares no node with this window.
     *
     * @param lambda     the planner's λ: an actionless plan that left Δ above it was held back, and carried a forecast
     * @param lastWindow the window before {@code now} (null when none), against which the workload's own change is measured
     */
    public static Optional<PredictionCheck> of(Plan previous, ClusterSnapshot now, double lambda, ClusterSnapshot lastWindow) {
        if (previous == null || previous.forecast().isEmpty()) {
            return Optional.empty();
        }
        double[] byDimension = errors(previous.forecast(), now);
        if (byDimension == null) {
            return Optional.empty();
        }
        double cpu = byDimension[0];
        double disk = byDimension[1];
        double claimed = claimed(previous);
        double e = Math.max(cpu, disk);
        Dimension d = cpu >= disk ? Dimension.CPU : Dimension.DISK;
        WorkloadShift shift = lastWindow == null ? WorkloadShift.NONE : WorkloadShift.between(lastWindow, now);
        boolean counts = !explained(e, shift);
        boolean carried = counts && (heldBack(previous, lambda) || previous.isRevert()) && previous.estimation() != null
                && !Double.isNaN(previous.estimation().lastPredictionError());
        double before = Double.NaN;
        double after = Double.NaN;
        double change = Double.NaN;
        Balance last = lastWindow == null || previous.actions().isEmpty() ? null : LoadModel.measuredBalance(lastWindow);
        if (last != null && RealisedShare.madeOn(previous, last)) {
            before = last.imbalanceDegree();
            after = LoadModel.measuredBalance(now).imbalanceDegree();
            change = change(previous.forecast(), lastWindow, d);
        }
        boolean worse = after > before;
        return Optional.of(new PredictionCheck(e, d, claimed, counts && (e > claimed || worse), carried, previous.forecast(),
                shift, before, after, Double.NaN, change));
    }

    /** Σ|forecast − measured| / Σ measured in {@code d}: how far a forecast moves the nodes from a window; NaN when unknown. */
    public static double change(List<NodeForecast> forecast, ClusterSnapshot window, Dimension d) {
        double[] byDimension = errors(forecast, window);
        return byDimension == null ? Double.NaN : byDimension[d == Dimension.CPU ? 0 : 1];
    }

    /**
     * Σ|forecast − measured| / Σ measured per dimension (CPU, disk) over the nodes both know; null
     * when they share no node.
     */
    static double[] errors(List<NodeForecast> forecast, ClusterSnapshot now) {
        return apart(forecast, measured(now), now);
    }

    /** The nodes' measured totals, as a forecast would give them. */
    private static List<NodeForecast> measured(ClusterSnapshot s) {
        return s.nodes().stream().map(n -> new NodeForecast(n.id(), n.cpuUsage(), n.diskBytesPerSec())).toList();
    }

    /** Whether the previous plan's moves, made on the last window, left Δ higher than they found it. */
    public boolean worsened() {
        return deltaNow > deltaBefore;
    }

    /** Whether the workload's own change explains the miss, so it does not count against the model. */
    public boolean explainedByWorkload() {
        return explained(error, shift);
    }

    private static boolean explained(double error, WorkloadShift shift) {
        return error > 0 && shift.share() >= EXPLAINED * error;
    }

    /**
     * Whether a plan moved nothing while Δ stayed above λ (held back as noise, or stuck). Such a
     * plan changes nothing the last moves' forecast said, so it carries that forecast on. A plan
     * that found the cluster balanced, or was suspended because load was in flux, does not.
     */
    public static boolean heldBack(Plan p, double lambda) {
        boolean quiet = p.status() == PlanStatus.BALANCED || p.status() == PlanStatus.STUCK;
        return p.actions().isEmpty() && quiet && p.before() != null && p.before().imbalanceDegree() > lambda;
    }

    private static double claimed(Plan p) {
        if (p.before() == null || p.predicted() == null || p.isRevert()) {
            return 0;
        }
        return Math.max(0, p.before().imbalanceDegree() - p.predicted().imbalanceDegree());
    }

    /** One line for plans, logs and /status. */
    public String describe() {
        String base = measured();
        if (explainedByWorkload()) {
            return base + String.format(Locale.ROOT, "; the workload itself moved by %.1f%% since the last window"
                    + " (region request counters), so the miss is not held against the model", 100 * shift.share());
        }
        if (!conservative) {
            return base;
        }
        return base + (refitted() ? String.format(Locale.ROOT, ": conservative, only actions whose benefit exceeds %.1f%%",
                100 * refitError) : ": conservative, only actions whose benefit exceeds that error");
    }

    /** What the check measured: the forecast's error, whether the moves left Δ worse, the refitted model's error. */
    public String measured() {
        String base = carried
                ? String.format(Locale.ROOT, "the last plan moved nothing; the forecast of the moves before it is off by %.1f%%"
                        + " (%s)", 100 * error, dimension.label())
                : String.format(Locale.ROOT, "last plan's forecast was off by %.1f%% (%s); it claimed to fix %.1f%%",
                        100 * error, dimension.label(), 100 * claimed);
        if (worsened()) {
            base += String.format(Locale.ROOT, ", and its moves left Δ worse, %.3f → %.3f", deltaBefore, deltaNow);
        }
        if (refitted()) {
            base += String.format(Locale.ROOT, "; the model refitted on this window would have been off by %.1f%% on"
                    + " those moves", 100 * refitError);
        }
        return base;
    }
}
