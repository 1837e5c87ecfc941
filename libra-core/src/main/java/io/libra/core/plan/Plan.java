package io.libra.core.plan;

import java.util.List;

/**
 * A plan is a value: ordered actions with reasons and the planner's own prediction.
 *
 * @param before    balance of the state the plan was made from
 * @param predicted balance after applying every action, as the planner estimates it
 * @param forecast   each node's expected load after the plan (empty when not forecast), checked
 *                   against the next window
 * @param estimation how the loads were estimated, or null when not said
 */
public record Plan(String strategy, List<Action> actions, Balance before, Balance predicted,
                   PlanStatus status, String detail, List<NodeForecast> forecast, Estimation estimation) {
    public Plan {
        actions = List.copyOf(actions);
        forecast = forecast == null ? List.of() : List.copyOf(forecast);
    }

    public Plan(String strategy, List<Action> actions, Balance before, Balance predicted, PlanStatus status,
                String detail) {
        this(strategy, actions, before, predicted, status, detail, List.of(), null);
    }

    /** The same plan with its node forecast and the estimation it came from. */
    public Plan withForecast(List<NodeForecast> nodes, Estimation how) {
        return new Plan(strategy, actions, before, predicted, status, detail, nodes, how);
    }

    /** The same plan with other actions and detail (reasons rewritten, for instance). */
    public Plan withActions(List<Action> newActions, String newDetail) {
        return new Plan(strategy, newActions, before, predicted, status, newDetail, forecast, estimation);
    }

    public static Plan empty(String strategy, Balance now, PlanStatus status, String detail) {
        return new Plan(strategy, List.of(), now, now, status, detail);
    }

    /** Whether the plan found the cluster balanced: it says so and moves nothing. */
    public boolean isBalanced() {
        return status == PlanStatus.BALANCED && actions.isEmpty();
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
