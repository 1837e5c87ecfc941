package io.libra.core;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The plan made on the last window of a history, recalled when the caller kept only the windows (the
 * CLI run without {@code --previous-plan}). Without it nothing checks the last forecast, no hysteresis
 * holds after a balanced round, and a closed loop re-plans every noisy window: churn.
 *
 * <p>The planner is deterministic for equal input, so planning the last {@value #ROUNDS} history windows
 * again, in order, each with the windows before it and the plan recalled before it, recalls the plans
 * that were carried out. Each stands only as far as the next window shows it:
 * <ul>
 *   <li>its actions carried out (the same key ranges on the same nodes, or tokens on a ring): itself;</li>
 *   <li>nothing moved: a round that held back;</li>
 *   <li>other moves and splits (the round was made with windows older than these, or by someone else):
 *       those, forecast by the round's estimate, so the check still holds that estimate to them;</li>
 *   <li>a change the windows cannot name: nothing.</li>
 * </ul>
 * Windows in which no region moved recall a round that held back without planning them again: whether
 * a balancer held or none ran, Δ within the hysteresis band is not chased. Windows in which half of the
 * regions moved or more follow no round of a balancer (windows drawn independently), and recall nothing.
 */
public final class ReplayedRounds {
    /** How many of the newest history windows are planned again: the plans a check can still reach. */
    public static final int ROUNDS = 3;
    private static final String RECALLED = "recalled from the windows: ";
    static final String HELD_BACK = RECALLED + "the round before held back, nothing moved after it";
    static final String NOTHING_MOVED = RECALLED + "no region moved in the %d windows given";
    static final String SEEN = RECALLED + "the moves seen after the round before, as it estimated them";

    private ReplayedRounds() {
    }

    /** The plan recalled for the last window of {@code history}, which {@code now} follows; empty when none stands. */
    public static Optional<Plan> lastPlan(Planner planner, List<ClusterSnapshot> history, ClusterSnapshot now) {
        if (history.isEmpty()) {
            return Optional.empty();
        }
        List<ClusterSnapshot> windows = new ArrayList<>(history);
        windows.add(now);
        List<Layout> layouts = windows.stream().map(Layout::of).toList();
        if (!anyMoved(layouts)) {
            return Optional.of(Plan.empty(planner.strategy().name(), LoadModel.measuredBalance(history.get(history.size() - 1)),
                    PlanStatus.BALANCED, String.format(Locale.ROOT, NOTHING_MOVED, windows.size())));
        }
        int first = Math.max(0, history.size() - ROUNDS);
        return loop(windows.subList(first, windows.size())) ? Optional.ofNullable(replay(planner, history, now, first))
                : Optional.empty();
    }

    /** The last window's plan, planning the windows from {@code first} on again; null when none stands. */
    private static Plan replay(Planner planner, List<ClusterSnapshot> history, ClusterSnapshot now, int first) {
        Plan recalled = null;
        for (int i = first; i < history.size(); i++) {
            ClusterSnapshot w = history.get(i);
            PlanResult planned = planner.plan(new PlanRequest(w, history.subList(0, i), recalled, false));
            ClusterSnapshot next = i + 1 < history.size() ? history.get(i + 1) : now;
            recalled = standing(planned, w, next, new PlanApplier(planner.estimation()));
        }
        return recalled;
    }

    /**
     * {@code planned} as far as {@code next} shows it carried out on {@code w}: itself, a round that
     * held back, or the changes seen instead forecast by its estimate; null when the windows do not show
     * what changed.
     */
    static Plan standing(PlanResult planned, ClusterSnapshot w, ClusterSnapshot next, PlanApplier applier) {
        Plan p = planned.plan();
        Layout seen = Layout.of(next);
        if (Layout.after(w, p).filter(seen::sameAs).isPresent()) {
            return p;
        }
        if (Layout.of(w).sameAs(seen)) {
            return Plan.empty(p.strategy(), p.before(), PlanStatus.BALANCED, HELD_BACK);
        }
        try {
            return SeenChanges.between(w, next).map(actions -> seen(p, actions, applier.apply(planned.before(), actions)))
                    .orElse(null);
        } catch (InvalidPlanException e) {
            return null; // a node the round's estimate did not have
        }
    }

    /** The changes seen after a round, each node's load forecast for them as that round estimated it. */
    private static Plan seen(Plan planned, List<Action> actions, LoadModel after) {
        return new Plan(planned.strategy(), actions, planned.before(), after.balance(), PlanStatus.PLANNED, SEEN,
                after.forecast(), planned.estimation());
    }

    /** What {@code p} says of itself when it was inferred from the windows rather than planned again. */
    public static Optional<String> inferred(Plan p) {
        return Optional.ofNullable(p).map(Plan::detail).filter(d -> d.startsWith(RECALLED));
    }

    /** Whether {@code previous} is a round recalled as held back, and the words for it. */
    static Optional<String> heldBack(Plan previous) {
        return Optional.ofNullable(previous).filter(Plan::isBalanced).flatMap(ReplayedRounds::inferred);
    }

    /**
     * Whether each window can follow the one before in a balancer's loop: fewer than half of the regions
     * moved. Windows drawn independently are not, and planning them again would only cost a plan's time.
     */
    private static boolean loop(List<ClusterSnapshot> windows) {
        for (int i = 1; i < windows.size(); i++) {
            if (!round(windows.get(i - 1), windows.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean round(ClusterSnapshot w, ClusterSnapshot next) {
        Map<String, String> before = w.placement();
        long moved = next.regions().stream().filter(r -> {
            String was = before.get(r.id());
            return was != null && !was.equals(r.node());
        }).count();
        return 2 * moved < next.regions().size();
    }

    private static boolean anyMoved(List<Layout> layouts) {
        for (int i = 1; i < layouts.size(); i++) {
            if (!layouts.get(i - 1).sameAs(layouts.get(i))) {
                return true;
            }
        }
        return false;
    }
}
