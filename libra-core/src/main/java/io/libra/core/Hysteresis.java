package io.libra.core;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import io.libra.core.schedule.StrategyOutcome;
import java.util.Locale;
import java.util.Optional;

/**
 * Noise suppression by hysteresis: once a round found the cluster balanced, or carried out a plan
 * whose forecast was within λ (give or take its {@link #tolerance}), Δ must climb past
 * {@value #RESUME_MULTIPLE}λ before the planner moves again, and then it plans down to λ as usual.
 * Δ is the largest node's deviation, a maximum over nodes, so window noise alone lifts it above
 * λ now and then (the paper: λ's precision "is limited by load estimation discrepancy and
 * fluctuations"); without the gap, a balanced cluster is re-planned on every noisy window and
 * each of those plans lands within its own forecast error, which is churn. While no region moves,
 * Δ is taken over the mean of the windows since one last did ({@link QuietWindows}), so a single
 * noisy window does not pass the resume threshold either.
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
     * Whether {@code previous} moved regions and forecast Δ within λ, give or take its tolerance
     * ({@link #tolerance}): the cluster was balanced as far as the planner can tell, and what it
     * measures above λ now is that forecast's error and the window's noise, which a next plan would
     * chase (churn). A plan taking moves back is not one.
     */
    static boolean reached(Plan previous, SchedulerConfig config) {
        return moved(previous) && previous.predicted().imbalanceDegree() <= config.lambda() + tolerance(previous, config);
    }

    /**
     * The benefit threshold (a run keeps no actions that gain less, so it may stop just short of λ),
     * or the forecast error measured when {@code previous} was planned when larger: a plan cannot
     * tell a Δ within that error of λ from λ, and the plans that chased it under node-speed moved
     * 26-41 GB apiece for forecast gains of 2-4% that then missed by about as much.
     */
    static double tolerance(Plan previous, SchedulerConfig config) {
        double known = previous.estimation() == null ? Double.NaN : previous.estimation().lastPredictionError();
        return Double.isNaN(known) ? config.benefitThreshold() : Math.max(config.benefitThreshold(), known);
    }

    /**
     * Whether {@code previous} was a conservative plan ({@link Conservative#marked}) that forecast Δ
     * within the band: it moved all that beat the planner's measured error, so by the planner's own
     * account what it leaves within 2λ cannot be told from that error, and chasing it is churn.
     */
    static boolean settled(Plan previous, SchedulerConfig config) {
        return moved(previous) && (Conservative.marked(previous) || weighedFlow(previous))
                && previous.predicted().imbalanceDegree() <= RESUME_MULTIPLE * config.lambda();
    }

    /**
     * Whether {@code previous} was a cooperative plan made with a flow error ({@link io.libra.core.plan.FlowError}):
     * it kept only the moves whose gain beat the error their traffic was expected to bring, so it stopped
     * where more moves no longer pay, and what it leaves within the band is that error.
     */
    static boolean weighedFlow(Plan previous) {
        return Strategies.LIBRA.equals(previous.strategy()) && previous.estimation() != null
                && previous.estimation().flowError() != null && previous.estimation().flowError().rate() > 0;
    }

    /** "λ", or λ and the forecast error the plan was made with when that set its {@link #tolerance}. */
    private static String within(Plan previous, SchedulerConfig config) {
        double t = tolerance(previous, config);
        boolean beyondThreshold = previous.predicted().imbalanceDegree() > config.lambda() + config.benefitThreshold();
        return t > config.benefitThreshold() && beyondThreshold
                ? String.format(Locale.ROOT, "λ and the forecast error it was planned with (%.1f%%)", 100 * t) : "λ";
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
                                LoadModel model, Optional<QuietWindows> quiet) {
        Plan p = outcome.plan();
        double lambda = config.lambda();
        boolean planned = p.status() == PlanStatus.PLANNED && !p.actions().isEmpty();
        boolean reached = !afterBalanced && reached(previous, config);
        boolean settled = !afterBalanced && !reached && settled(previous, config);
        if (!(afterBalanced || reached || settled) || !(planned || p.status() == PlanStatus.STUCK) || p.before() == null) {
            return outcome;
        }
        double delta = quiet.map(QuietWindows::delta).orElse(p.before().imbalanceDegree());
        double resume = RESUME_MULTIPLE * lambda;
        if (delta > resume) {
            return outcome;
        }
        String since = reached || settled ? String.format(Locale.ROOT, "the last plan%s forecast Δ = %.3f, within %s",
                settled ? (Conservative.marked(previous) ? ", conservative," : ", weighing the error its moves' traffic brings,")
                        : "", previous.predicted().imbalanceDegree(),
                settled ? "2λ" : within(previous, config))
                : ReplayedRounds.heldBack(previous).orElse("the last round was balanced");
        String over = quiet.map(q -> String.format(Locale.ROOT,
                " over the %d windows since a region last moved (this one's %.3f)", q.windows(),
                p.before().imbalanceDegree())).orElse("");
        String why = String.format(Locale.ROOT, "Δ = %.3f%s ≤ %.0fλ = %.3f and %s:"
                + " within the hysteresis, planning resumes above %.3f", delta, over, RESUME_MULTIPLE, resume, since, resume);
        return new StrategyOutcome(Plan.empty(p.strategy(), p.before(), PlanStatus.BALANCED, why), model);
    }
}
