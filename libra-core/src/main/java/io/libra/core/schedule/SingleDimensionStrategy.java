package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.split.RegionSplitter;

/** Baseline 1d-cpu / 1d-io: balances one dimension and ignores the other (§II-C). */
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
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        WorkingState state = new WorkingState(model, new RegionSplitter(context.estimation()));
        double wCpu = dimension == Dimension.CPU ? 1 : 0;
        ScoreBalancer balancer = new ScoreBalancer(state, config, wCpu, 1 - wCpu);
        if (maxOf(balancer, state) <= 1 + config.lambda()) {
            return PlanFinisher.unchanged(Plan.empty(name(), model.balance(), PlanStatus.BALANCED, dimension.label() + " within 1 + λ"), model);
        }
        int cap = Baselines.cap(model, config);
        while (state.actions().size() < cap && balancer.step()) {
            // each step moves one region
        }
        return PlanFinisher.finish(name(), model, context, state.actions(), "no region fits under the load constraint");
    }

    static double maxOf(ScoreBalancer b, WorkingState state) {
        double max = 0;
        for (int j = 0; j < state.nodeCount(); j++) {
            max = Math.max(max, b.score(j));
        }
        return max;
    }
}
