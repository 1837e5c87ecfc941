package io.libra.core;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.util.List;
import java.util.Optional;

/**
 * What one planning round is given.
 *
 * @param snapshot     the current window
 * @param history      earlier windows of the same cluster, oldest first (may be empty)
 * @param previousPlan the plan made on the window before, whose forecast this window checks; null when none
 * @param guard        whether the fluctuation guard compares the last history window with this one
 * @param afterBalanced whether the last round found the cluster balanced, so Δ must pass the
 *                      hysteresis before anything moves ({@link Hysteresis})
 */
public record PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard,
                          boolean afterBalanced) {
    public PlanRequest {
        history = List.copyOf(history);
    }

    /** A request whose previous plan is the last round's, so it says whether that round was balanced. */
    public PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard) {
        this(snapshot, history, previousPlan, guard, Hysteresis.balanced(previousPlan));
    }

    public static PlanRequest of(ClusterSnapshot snapshot) {
        return new PlanRequest(snapshot, List.of(), null, false);
    }

    public Optional<ClusterSnapshot> lastWindow() {
        return history.isEmpty() ? Optional.empty() : Optional.of(history.get(history.size() - 1));
    }
}
