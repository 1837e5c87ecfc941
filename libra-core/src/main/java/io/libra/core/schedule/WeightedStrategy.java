package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;

/** Placeholder until implemented. */
public final class WeightedStrategy implements Strategy {
    @Override
    public String name() {
        return "2d-wtd";
    }

    @Override
    public Plan plan(LoadModel model, PlanningContext context) {
        return Plan.empty(name(), model.balance(), PlanStatus.BALANCED, "not implemented");
    }
}
