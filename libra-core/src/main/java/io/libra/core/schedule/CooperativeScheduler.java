package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Libra's cooperative scheduling (§III-B) with load-based splitting (§IV-B) and lazy
 * scheduling (§IV-C). The loop itself lives in {@link CooperativeRun}; this class decides
 * whether to run at all (hysteresis: a cluster within λ gets an empty plan) and turns the
 * run's actions into the final plan (redundant actions removed, cold neighbours merged).
 */
public final class CooperativeScheduler implements Strategy {
    @Override
    public String name() {
        return Strategies.LIBRA;
    }

    @Override
    public Plan plan(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        Balance before = model.balance();
        if (before.imbalanceDegree() <= config.lambda()) {
            return Plan.empty(name(), before, PlanStatus.BALANCED,
                    "Δ = " + Notes.num(before.imbalanceDegree()) + " ≤ λ = " + config.lambda());
        }
        List<Action> raw = new CooperativeRun(model, context).schedule();
        List<Action> actions = new ArrayList<>(config.lazy() ? PlanOptimizer.optimize(model, raw) : raw);
        actions.addAll(ColdMerges.propose(model, actions, context));
        return PlanFinisher.finish(name(), model, context, actions,
                "Δ = " + Notes.num(before.imbalanceDegree()) + " > λ but no region met the migration conditions");
    }
}
