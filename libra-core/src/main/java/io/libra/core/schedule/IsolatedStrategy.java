package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;

/**
 * Baseline 2d-iso: each dimension balanced by its own scheduler that ignores the other, taking
 * turns, as TiKV's PD and CockroachDB do. The two can undo each other's work.
 */
public final class IsolatedStrategy implements Strategy {
    @Override
    public String name() {
        return "2d-iso";
    }

    @Override
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        if (model.balance().imbalanceDegree() <= config.lambda()) {
            return PlanFinisher.unchanged(Plan.empty(name(), model.balance(), PlanStatus.BALANCED, "both dimensions within 1 + λ"), model);
        }
        WorkingState state = new WorkingState(model, context);
        ScoreBalancer cpu = new ScoreBalancer(state, config, Score.CPU);
        ScoreBalancer disk = new ScoreBalancer(state, config, Score.DISK);
        int cap = Baselines.cap(model, config);
        boolean active = true;
        while (active && state.actions().size() < cap) {
            boolean movedCpu = cpu.step();
            boolean movedDisk = state.actions().size() < cap && disk.step();
            active = movedCpu || movedDisk;
        }
        return PlanFinisher.finish(name(), model, context, state.actions(), "no region fits under the load constraint");
    }
}
