package io.libra.core;

import io.libra.core.estimate.PredictionCheck;
import io.libra.core.plan.Action;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A small step out of a hold that cannot end by itself. A check carried on by held-back plans
 * repeats the last moves' miss for as long as nothing moves, and the conservative settings it calls
 * for (λ and the benefit threshold raised to that error, gains held to it) can keep a cluster that
 * its nodes measure well out of balance where it is for good: nothing moves, so no window can
 * measure a forecast again (under a hidden CPU cost that grows with a node's data, byte-cpu seed 1
 * held at a measured Δ of 0.13 from its second window to its eighth). So once a plan was held back
 * and the next window measures the same layout again ({@value #QUIET_WINDOWS} windows), the nodes'
 * mean Δ over them still past the hysteresis' resume threshold (2λ), the planner takes a step at the
 * operator's λ and benefit threshold, of at most {@value #ACTIONS} actions: the first the cooperative
 * scheduler takes, off the most loaded nodes. A step that small errs little, since a forecast's error
 * grows with what moves, and the next window checks its own forecast afresh, so the planner learns
 * again instead of repeating an old miss. The conservative settings return with any new miss; a step
 * that left Δ worse is taken back ({@link Revert}).
 */
final class MeasuredStep {
    /** The windows the held layout must have been measured in, this one included: held back once before. */
    static final int QUIET_WINDOWS = 2;
    /** The most actions a step takes. */
    static final int ACTIONS = 3;
    private static final String MARK = "measured step";

    private MeasuredStep() {
    }

    /**
     * Whether this round takes a step: the check is carried on by plans held back since its moves and
     * keeps the planner conservative, the layout has not changed for {@value #QUIET_WINDOWS} windows,
     * and Δ of the nodes' mean over them is past 2λ.
     */
    static boolean due(Optional<PredictionCheck> check, Optional<QuietWindows> quiet, SchedulerConfig config) {
        return check.filter(c -> c.carried() && c.conservative() && !c.explainedByWorkload()).isPresent()
                && quiet.filter(q -> q.windows() >= QUIET_WINDOWS
                        && q.delta() > Hysteresis.RESUME_MULTIPLE * config.lambda()).isPresent();
    }

    /** The operator's settings, the plan capped at {@value #ACTIONS} actions. */
    static SchedulerConfig config(SchedulerConfig operator) {
        return operator.withMaxActions(operator.maxActions() > 0 ? Math.min(ACTIONS, operator.maxActions()) : ACTIONS);
    }

    /** Says in the plan's detail, and in each action's reason, why it moves despite the carried check. */
    static Plan explain(Plan plan, PredictionCheck check, QuietWindows quiet, double lambda) {
        String line = String.format(Locale.ROOT, "%s; %s: Δ = %.3f over the %d windows since a region last moved, past"
                        + " %.0fλ = %.3f, and no window can check the carried forecast again while nothing moves, so at most"
                        + " %d actions at λ = %.3f, whose forecast the next window checks", check.measured(), MARK,
                quiet.delta(), quiet.windows(), Hysteresis.RESUME_MULTIPLE, Hysteresis.RESUME_MULTIPLE * lambda, ACTIONS,
                lambda);
        String detail = plan.detail() == null || plan.detail().isEmpty() ? line : plan.detail() + "; " + line;
        if (plan.status() != PlanStatus.PLANNED) {
            return plan.withActions(plan.actions(), detail);
        }
        String clause = String.format(Locale.ROOT, "%s out of a hold: Δ = %.3f over %d windows", MARK, quiet.delta(),
                quiet.windows());
        List<Action> actions = new ArrayList<>(plan.actions().size());
        for (Action a : plan.actions()) {
            actions.add(a.reason() == null ? a : a.withReason(a.reason().withNote(clause)));
        }
        return plan.withActions(actions, detail);
    }
}
