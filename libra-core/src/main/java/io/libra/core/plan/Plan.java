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
 * @param takenBack  moves measured to leave Δ worse and taken back ({@link Constraint#REVERT}), as they were
 *                   first made: a revert names them, and a plan held back after it carries them on, so a
 *                   later plan does not make them again while their forecast is the one checked
 */
public record Plan(String strategy, List<Action> actions, Balance before, Balance predicted,
                   PlanStatus status, String detail, List<NodeForecast> forecast, Estimation estimation,
                   List<MoveAction> takenBack) {
    public Plan {
        actions = List.copyOf(actions);
        forecast = forecast == null ? List.of() : List.copyOf(forecast);
        takenBack = takenBack == null ? List.of() : List.copyOf(takenBack);
    }

    public Plan(String strategy, List<Action> actions, Balance before, Balance predicted, PlanStatus status,
                String detail, List<NodeForecast> forecast, Estimation estimation) {
        this(strategy, actions, before, predicted, status, detail, forecast, estimation, List.of());
    }

    public Plan(String strategy, List<Action> actions, Balance before, Balance predicted, PlanStatus status,
                String detail) {
        this(strategy, actions, before, predicted, status, detail, List.of(), null);
    }

    /** The same plan with its node forecast and the estimation it came from. */
    public Plan withForecast(List<NodeForecast> nodes, Estimation how) {
        return new Plan(strategy, actions, before, predicted, status, detail, nodes, how, takenBack);
    }

    /** The same plan with other actions and detail (reasons rewritten, for instance). */
    public Plan withActions(List<Action> newActions, String newDetail) {
        return new Plan(strategy, newActions, before, predicted, status, newDetail, forecast, estimation, takenBack);
    }

    /** The same plan naming the moves taken back that it carries on. */
    public Plan withTakenBack(List<MoveAction> moves) {
        return new Plan(strategy, actions, before, predicted, status, detail, forecast, estimation, moves);
    }

    public static Plan empty(String strategy, Balance now, PlanStatus status, String detail) {
        return new Plan(strategy, List.of(), now, now, status, detail);
    }

    /** Whether the plan found the cluster balanced: it says so and moves nothing. */
    public boolean isBalanced() {
        return status == PlanStatus.BALANCED && actions.isEmpty();
    }

    /** Whether every action takes back a move of the plan before ({@link Constraint#REVERT}). */
    public boolean isRevert() {
        return !actions.isEmpty() && actions.stream().allMatch(a -> a.reason() != null
                && a.reason().passed().contains(Constraint.REVERT));
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
