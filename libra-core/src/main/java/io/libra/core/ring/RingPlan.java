package io.libra.core.ring;

import io.libra.core.plan.Balance;
import io.libra.core.plan.PlanStatus;
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
    public RingPlan {
        moves = List.copyOf(moves);
    }
}
