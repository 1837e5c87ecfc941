package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Action;
import io.libra.core.plan.Plan;
import io.libra.core.apply.PlanApplier;
import io.libra.core.plan.PlanStatus;
import java.util.List;

/** Turns a strategy's actions into a plan value with the predicted balance. */
final class PlanFinisher {
    private PlanFinisher() {
    }

    static StrategyOutcome finish(String strategy, LoadModel model, PlanningContext context, List<Action> actions,
                                  String stuck) {
        if (actions.isEmpty()) {
            return unchanged(Plan.empty(strategy, model.balance(), PlanStatus.STUCK, stuck), model);
        }
        LoadModel predicted = new PlanApplier(context.estimation()).apply(model, actions);
        return finish(strategy, model, actions, predicted);
    }

    /** When the predicted state is already known. */
    static StrategyOutcome finish(String strategy, LoadModel model, List<Action> actions, LoadModel predicted) {
        return new StrategyOutcome(new Plan(strategy, actions, model.balance(), predicted.balance(), PlanStatus.PLANNED,
                actions.size() + " actions"), predicted);
    }

    static StrategyOutcome unchanged(Plan empty, LoadModel model) {
        return new StrategyOutcome(empty, model);
    }
}
