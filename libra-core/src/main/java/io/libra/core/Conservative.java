package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.StrategyOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Conservative planning after a forecast that missed by more than it claimed to fix: nodes
 * within the measured error of their target count as balanced (λ ≥ error), and only regions
 * carrying more normalised load than the error may move (benefit threshold ≥ error), so every
 * action's predicted benefit exceeds what the planner is known to get wrong. The error is the
 * forecast's, or the refitted model's on the same moves when lower ({@link PredictionCheck#bound()}).
 */
final class Conservative {
    /** The benefit threshold must stay below 1 (SchedulerConfig's bound). */
    private static final double MAX_THRESHOLD = 0.9;
    private static final double NOISE_MULTIPLE = 1.0;
    /** The share of a miss within which the refitted model's forecast of the same moves explains it ({@link #repeated}). */
    private static final double EXPLAINED = 0.5;
    /** How every action of a conservative plan begins its reason's clause, which the plan JSON keeps. */
    private static final String MARK = "conservative: benefit above";

    private Conservative() {
    }

    /**
     * @param deltaNow Δ of the node totals measured now (a check carried on by a held-back plan
     *                 knows no Δ of its own)
     */
    static SchedulerConfig config(SchedulerConfig c, Optional<PredictionCheck> check, double deltaNow) {
        if (check.isEmpty() || !check.get().conservative()) {
            return c;
        }
        double e = check.get().bound();
        SchedulerConfig out = c.withLambda(Math.max(c.lambda(), Math.min(e, 9.9)));
        // Beyond what the error explains, the plan as a whole is held to it (withinNoise); a threshold
        // above every region's share would leave nothing to move, however far out the cluster is.
        double benefit = deltaNow > c.lambda() + e ? c.benefitThreshold()
                : Math.max(c.benefitThreshold(), Math.min(e, MAX_THRESHOLD));
        return new SchedulerConfig(out.lambda(), benefit, out.maxActions(), out.splitting(), out.lazy(),
                out.mergeColdBelow(), out.cpuWeight(), out.flowError(), out.landing());
    }

    /**
     * Noise suppression against the forecast check: a plan whose predicted gain in Δ is within
     * {@value #NOISE_MULTIPLE}× the error it should expect cannot be told from noise, so carrying
     * it out would be churn. The cluster is left as it is and the detail says why. The error to
     * expect is the last forecast's, scaled by how far this plan moves the nodes against how far
     * that one did ({@link PredictionCheck#scaleTo}): after a large plan whose forecast held, a
     * small correcting step is not held to the large plan's error, so the loop keeps converging,
     * and a plan far larger than the one checked is held to the more error its size brings.
     */
    static StrategyOutcome withinNoise(StrategyOutcome outcome, Optional<PredictionCheck> check, LoadModel model,
                                       ClusterSnapshot snapshot) {
        Plan p = outcome.plan();
        if (check.isEmpty() || p.status() != PlanStatus.PLANNED || p.actions().isEmpty() || p.isRevert()) {
            return outcome;
        }
        double gain = p.before().imbalanceDegree() - p.predicted().imbalanceDegree();
        double planned = PredictionCheck.change(outcome.predicted().forecast(), snapshot, check.get().dimension());
        double scale = check.get().scaleTo(planned);
        double noise = NOISE_MULTIPLE * check.get().bound() * scale;
        if (gain >= noise) {
            return outcome;
        }
        String why = String.format(Locale.ROOT, "predicted gain in Δ %.1f%% is within %.0f× %s (%.1f%%%s): not worth moving",
                100 * gain, NOISE_MULTIPLE, check.get().refitted() ? "the refitted model's error on the last moves"
                        : "the last forecast error", 100 * check.get().bound(), scaled(noise, scale));
        return heldBack(p, why, model);
    }

    /**
     * After moves were taken back ({@link Plan#takenBack()} of the previous plan), a plan that aims
     * where they aimed ({@link PredictionCheck#repeats}) is held back: its forecast is the one
     * measured wrong, so carrying it out would repeat the miss. Unless the model refitted on the
     * window that measured them forecasts those moves within {@value #EXPLAINED} of the miss: the
     * miss was then the old model's, and the plan is the refitted one's (calm seed 10 under
     * disk-speed once held at 2.03 for six rounds, every plan held back, measured steps too, while
     * the refitted model forecast the moves taken back within 2.4% against a miss of 22.3%).
     */
    static StrategyOutcome repeated(StrategyOutcome outcome, Optional<PredictionCheck> check, Plan previous,
                                    LoadModel model, ClusterSnapshot snapshot) {
        Plan p = outcome.plan();
        if (check.isEmpty() || previous == null || previous.takenBack().isEmpty() || p.actions().isEmpty()
                || p.isRevert() || check.get().bound() <= EXPLAINED * check.get().error()
                || !check.get().repeats(outcome.predicted().forecast(), snapshot)) {
            return outcome;
        }
        String why = String.format(Locale.ROOT, "the plan aims where the %d moves taken back aimed, whose forecast is off"
                + " by %.1f%%: not repeating them", previous.takenBack().size(), 100 * check.get().error());
        return heldBack(p, why, model);
    }

    /** {@code p} held back: nothing moves, and the detail says why. */
    private static StrategyOutcome heldBack(Plan p, String why, LoadModel model) {
        return new StrategyOutcome(Plan.empty(p.strategy(), p.before(), PlanStatus.BALANCED, why), model);
    }

    private static String scaled(double noise, double scale) {
        return scale != 1 ? String.format(Locale.ROOT, ", %.1f%% for a plan this size", 100 * noise) : "";
    }

    /** Whether every action of {@code p} says it was planned conservatively ({@link #explain}); false without actions. */
    static boolean marked(Plan p) {
        return !p.actions().isEmpty() && p.actions().stream()
                .allMatch(a -> a.reason() != null && a.reason().note() != null && a.reason().note().contains(MARK));
    }

    /** Says in the plan's detail and in every action's reason why the plan is conservative. */
    static Plan explain(Plan plan, Optional<PredictionCheck> check) {
        if (check.isEmpty()) {
            return plan;
        }
        String line = check.get().describe();
        String detail = plan.detail() == null || plan.detail().isEmpty() ? line : plan.detail() + "; " + line;
        if (!check.get().conservative()) {
            return plan.withActions(plan.actions(), detail);
        }
        String clause = check.get().refitted()
                ? String.format(Locale.ROOT, MARK + " the refitted model's error on the last moves %.1f%%",
                        100 * check.get().bound())
                : String.format(Locale.ROOT, MARK + " the measured forecast error %.1f%%", 100 * check.get().error());
        List<Action> actions = new ArrayList<>(plan.actions().size());
        for (Action a : plan.actions()) {
            actions.add(a.reason() == null ? a : a.withReason(a.reason().withNote(clause)));
        }
        return plan.withActions(actions, detail);
    }
}
