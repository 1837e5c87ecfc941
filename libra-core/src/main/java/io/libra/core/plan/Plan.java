package io.libra.core.plan;

import java.util.List;

/**
 * A plan is a value: ordered actions with reasons and the planner's own prediction.
 *
 * @param before    balance of the state the plan was made from
 * @param predicted balance after applying every action, as the planner estimates it
 */
public record Plan(String strategy, List<Action> actions, Balance before, Balance predicted,
                   PlanStatus status, String detail) {
    public Plan {
        actions = List.copyOf(actions);
    }

    public static Plan empty(String strategy, Balance now, PlanStatus status, String detail) {
        return new Plan(strategy, List.of(), now, now, status, detail);
    }

    public boolean isEmpty() {
        return actions.isEmpty();
    }

    public long count(String type) {
        return actions.stream().filter(a -> a.type().equals(type)).count();
    }

    /** Bytes the moves transfer. */
    public double movedBytes() {
        return actions.stream().filter(MoveAction.class::isInstance)
                .mapToDouble(a -> ((MoveAction) a).sizeBytes()).sum();
    }
}
