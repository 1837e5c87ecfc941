package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;

/** Placeholder until implemented. */
public final class CooperativeScheduler implements Strategy {
    @Override
    public String name() {
        return "libra";
    }

    @Override
    public Plan plan(LoadModel model, PlanningContext context) {
        return Plan.empty(name(), model.balance(), PlanStatus.BALANCED, "not implemented");
    }
}
