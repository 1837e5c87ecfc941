package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;

/** Placeholder until implemented. */
public final class SingleDimensionStrategy implements Strategy {
    private final Dimension dimension;

    public SingleDimensionStrategy(Dimension d) {
        this.dimension = d;
    }

    @Override
    public String name() {
        return dimension == Dimension.CPU ? "1d-cpu" : "1d-io";
    }

    @Override
    public Plan plan(LoadModel model, PlanningContext context) {
        return Plan.empty(name(), model.balance(), PlanStatus.BALANCED, "not implemented");
    }
}
