package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
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

    private Conservative() {
    }

    static SchedulerConfig config(SchedulerConfig c, Optional<PredictionCheck> check) {
        if (check.isEmpty() || !check.get().conservative()) {
            return c;
        }
        double e = check.get().bound();
        SchedulerConfig out = c.withLambda(Math.max(c.lambda(), Math.min(e, 9.9)));
        return new SchedulerConfig(out.lambda(), Math.max(c.benefitThreshold(), Math.min(e, MAX_THRESHOLD)),
                out.maxActions(), out.splitting(), out.lazy(), out.mergeColdBelow(), out.cpuWeight());
    }

    /**
     * Noise suppression against the forecast check: a plan whose predicted gain in Δ is within
     * {@value #NOISE_MULTIPLE}× the last measured forecast error cannot be told from noise, so
     * carrying it out would be churn. The cluster is left as it is and the detail says why.
     */
    static StrategyOutcome withinNoise(StrategyOutcome outcome, Optional<PredictionCheck> check, LoadModel model) {
        Plan p = outcome.plan();
        if (check.isEmpty() || p.status() != PlanStatus.PLANNED || p.actions().isEmpty()) {
            return outcome;
        }
        double gain = p.before().imbalanceDegree() - p.predicted().imbalanceDegree();
        double noise = NOISE_MULTIPLE * check.get().bound();
        if (gain >= noise) {
            return outcome;
        }
        String why = String.format(Locale.ROOT, "predicted gain in Δ %.1f%% is within %.0f× %s (%.1f%%): not worth moving",
                100 * gain, NOISE_MULTIPLE, check.get().refitted() ? "the refitted model's error on the last moves"
                        : "the last forecast error", 100 * check.get().bound());
        return new StrategyOutcome(Plan.empty(p.strategy(), p.before(), PlanStatus.BALANCED, why), model);
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
                ? String.format(Locale.ROOT, "conservative: benefit above the refitted model's error on the last moves %.1f%%",
                        100 * check.get().bound())
                : String.format(Locale.ROOT, "conservative: benefit above the measured forecast error %.1f%%",
                        100 * check.get().error());
        List<Action> actions = new ArrayList<>(plan.actions().size());
        for (Action a : plan.actions()) {
            actions.add(a.reason() == null ? a : a.withReason(a.reason().withNote(clause)));
        }
        return plan.withActions(actions, detail);
    }
}
