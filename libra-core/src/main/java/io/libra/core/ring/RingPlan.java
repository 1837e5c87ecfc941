package io.libra.core.ring;

import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Token moves for a single-token ring, in the order to run them.
 *
 * @param method    {@code bottleneck-search} or {@code greedy}: which search produced the target
 * @param predicted the balance after all moves, by the planner's own estimate
 * @param detail    one line comparing the searches, or why nothing is planned
 */
public record RingPlan(String method, List<TokenMove> moves, Balance before, Balance predicted,
                       PlanStatus status, String detail) {
    /** The strategy name a ring plan carries in {@code libra.plan/v1}: {@code libra-ring/<method>}. */
    public static final String STRATEGY_PREFIX = "libra-ring/";

    public RingPlan {
        moves = List.copyOf(moves);
    }

    /** The same plan as core's {@link Plan}, with one {@link MoveTokenAction} per move. */
    public Plan toPlan() {
        List<Action> actions = new ArrayList<>(moves.size());
        for (TokenMove m : moves) {
            actions.add(new MoveTokenAction(m.node(), m.fromKey(), m.toKey(), m.reason(), m.movedBytes()));
        }
        return new Plan(STRATEGY_PREFIX + method, actions, before, predicted, status, detail);
    }
}
