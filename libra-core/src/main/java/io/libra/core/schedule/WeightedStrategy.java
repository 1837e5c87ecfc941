package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.split.RegionSplitter;

/**
 * Baseline 2d-wtd: one weighted score {@code w·A' + (1 − w)·B'} per node, as HBase's cost
 * functions combine load terms; default 0.5:0.5 (§V-F). Blind to (100, 50) vs (50, 100).
 */
public final class WeightedStrategy implements Strategy {
    @Override
    public String name() {
        return "2d-wtd";
    }

    @Override
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        WorkingState state = new WorkingState(model, new RegionSplitter(context.estimation()));
        ScoreBalancer balancer = new ScoreBalancer(state, config, config.cpuWeight(), 1 - config.cpuWeight());
        if (SingleDimensionStrategy.maxOf(balancer, state) <= 1 + config.lambda()) {
            return PlanFinisher.unchanged(Plan.empty(name(), model.balance(), PlanStatus.BALANCED, "weighted score within 1 + λ"), model);
        }
        int cap = Baselines.cap(model, config);
        while (state.actions().size() < cap && balancer.step()) {
            // each step moves one region
        }
        return PlanFinisher.finish(name(), model, context, state.actions(), "no region fits under the load constraint");
    }
}
