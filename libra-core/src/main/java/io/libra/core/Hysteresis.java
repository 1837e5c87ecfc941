package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.StrategyOutcome;
import java.util.Locale;

/**
 * Noise suppression by hysteresis: once a round found the cluster balanced, or carried out a plan
 * whose forecast was within λ, Δ must climb past {@value #RESUME_MULTIPLE}λ before the planner moves
 * again, and then it plans down to λ as usual.
 * Δ is the largest node's deviation, a maximum over nodes, so window noise alone lifts it above
 * λ now and then (the paper: λ's precision "is limited by load estimation discrepancy and
 * fluctuations"); without the gap, a balanced cluster is re-planned on every noisy window and
 * each of those plans lands within its own forecast error, which is churn.
 */
final class Hysteresis {
    static final double RESUME_MULTIPLE = 2.0;

    private Hysteresis() {
    }

    /** Whether a plan found the cluster balanced (moved nothing and said so), so the next round holds until 2λ. */
    static boolean balanced(Plan previous) {
        return previous != null && previous.isBalanced();
    }

    /**
     * Whether {@code previous} moved regions and forecast Δ within λ, give or take the benefit
     * threshold (a run keeps no actions that gain less than it, so it may stop just short of λ): the
     * cluster was balanced as far as the planner can tell, and what it measures above λ now is that
     * forecast's error and the window's noise, which a next plan would chase (churn). A plan taking
     * moves back is not one.
     */
    static boolean reached(Plan previous, SchedulerConfig config) {
        return moved(previous) && previous.predicted().imbalanceDegree() <= config.lambda() + config.benefitThreshold();
    }

    /**
     * Whether {@code previous} was a conservative plan ({@link Conservative#marked}) that forecast Δ
     * within the band: it moved all that beat the planner's measured error, so by the planner's own
     * account what it leaves within 2λ cannot be told from that error, and chasing it is churn.
     */
    static boolean settled(Plan previous, SchedulerConfig config) {
        return moved(previous) && Conservative.marked(previous)
                && previous.predicted().imbalanceDegree() <= RESUME_MULTIPLE * config.lambda();
    }

    private static boolean moved(Plan previous) {
        return previous != null && previous.status() == PlanStatus.PLANNED && !previous.actions().isEmpty()
                && !previous.isRevert() && previous.predicted() != null;
    }

    /**
     * The outcome, or a balanced plan when the last round was balanced, or its plan {@link #reached}
     * λ or {@link #settled} within the band, and Δ has not passed the resume threshold. A round stuck
     * within the band is balanced too: were it not, the next round would plan from λ, below the band
     * the balanced round set.
     */
    static StrategyOutcome hold(StrategyOutcome outcome, boolean afterBalanced, Plan previous, SchedulerConfig config,
                                LoadModel model) {
        Plan p = outcome.plan();
        double lambda = config.lambda();
        boolean planned = p.status() == PlanStatus.PLANNED && !p.actions().isEmpty();
        boolean reached = !afterBalanced && reached(previous, config);
        boolean settled = !afterBalanced && !reached && settled(previous, config);
        if (!(afterBalanced || reached || settled) || !(planned || p.status() == PlanStatus.STUCK) || p.before() == null) {
            return outcome;
        }
        double delta = p.before().imbalanceDegree();
        double resume = RESUME_MULTIPLE * lambda;
        if (delta > resume) {
            return outcome;
        }
        String since = reached || settled ? String.format(Locale.ROOT, "the last plan%s forecast Δ = %.3f, within %s",
                settled ? ", conservative," : "", previous.predicted().imbalanceDegree(), settled ? "2λ" : "λ")
                : "the last round was balanced";
        String why = String.format(Locale.ROOT, "Δ = %.3f ≤ %.0fλ = %.3f and %s:"
                + " within the hysteresis, planning resumes above %.3f", delta, RESUME_MULTIPLE, resume, since, resume);
        return new StrategyOutcome(Plan.empty(p.strategy(), p.before(), PlanStatus.BALANCED, why), model);
    }
}
