package io.libra.core;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.OwnLoad;
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
 * @param ownLoad      load of their own an earlier estimate found on nodes, kept where this
 *                     round's windows cannot show it again ({@link io.libra.core.estimate.NodeBackgrounds})
 * @param flowError    how a node's forecast error grows with the load moved through it, as an earlier plan was
 *                     made with it ({@link FlowError}), pooled with this round's check; null when none was
 */
public record PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard,
                          boolean afterBalanced, List<OwnLoad> ownLoad, FlowError flowError) {
    public PlanRequest {
        history = List.copyOf(history);
        ownLoad = List.copyOf(ownLoad);
    }

    /** A request that keeps the flow error the previous plan was made with. */
    public PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard,
                       boolean afterBalanced, List<OwnLoad> ownLoad) {
        this(snapshot, history, previousPlan, guard, afterBalanced, ownLoad,
                previousPlan == null || previousPlan.estimation() == null ? null : previousPlan.estimation().flowError());
    }

    /** A request that keeps the load of their own the previous plan's estimate found on nodes. */
    public PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard,
                       boolean afterBalanced) {
        this(snapshot, history, previousPlan, guard, afterBalanced, previousPlan == null || previousPlan.estimation() == null
                ? List.of() : previousPlan.estimation().ownLoad());
    }

    /** A request whose previous plan is the last round's, so it says whether that round was balanced. */
    public PlanRequest(ClusterSnapshot snapshot, List<ClusterSnapshot> history, Plan previousPlan, boolean guard) {
        this(snapshot, history, previousPlan, guard, Hysteresis.balanced(previousPlan));
    }

    public static PlanRequest of(ClusterSnapshot snapshot) {
        return new PlanRequest(snapshot, List.of(), null, false);
    }

    /** The same request keeping {@code remembered} (an adapter's memory of the last estimate, whatever plan it checks). */
    public PlanRequest withOwnLoad(List<OwnLoad> remembered) {
        return new PlanRequest(snapshot, history, previousPlan, guard, afterBalanced, remembered, flowError);
    }

    /**
     * The same request with the flow error an adapter remembers from its last plan, kept where this
     * round's previous plan does not carry one (the last run moved nothing, so no plan is kept to check).
     */
    public PlanRequest withFlowError(FlowError remembered) {
        return new PlanRequest(snapshot, history, previousPlan, guard, afterBalanced, ownLoad,
                flowError != null ? flowError : remembered);
    }

    public Optional<ClusterSnapshot> lastWindow() {
        return history.isEmpty() ? Optional.empty() : Optional.of(history.get(history.size() - 1));
    }
}
