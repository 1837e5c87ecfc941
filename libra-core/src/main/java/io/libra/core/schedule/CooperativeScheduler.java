package io.libra.core.schedule;

import io.libra.core.estimate.GrossFlow;
import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Plan;
import io.libra.core.apply.PlanApplier;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Libra's cooperative scheduling (§III-B) with load-based splitting (§IV-B) and lazy
 * scheduling (§IV-C). The loop itself lives in {@link CooperativeRun}; this class decides
 * whether to run at all (a cluster within λ, or within the landing {@link SchedulerConfig#stopAt},
 * gets an empty plan) and turns the run's actions into the final plan (redundant actions removed,
 * cold neighbours merged).
 */
public final class CooperativeScheduler implements Strategy {
    private static final int MAX_ROUNDS = 16;

    @Override
    public String name() {
        return Strategies.LIBRA;
    }

    @Override
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        Balance before = model.balance();
        if (before.imbalanceDegree() <= config.lambda()) {
            return PlanFinisher.unchanged(Plan.empty(name(), before, PlanStatus.BALANCED,
                    "Δ = " + Notes.compared(before.imbalanceDegree(), " ≤ λ = ", config.lambda())), model);
        }
        if (before.imbalanceDegree() <= config.stopAt()) {
            return PlanFinisher.unchanged(Plan.empty(name(), before, PlanStatus.BALANCED,
                    "Δ = " + Notes.compared(before.imbalanceDegree(), " ≤ the landing = ", config.stopAt())), model);
        }
        Rounds rounds = runToFixedPoint(model, context);
        String stuck = "Δ = " + Notes.against(before.imbalanceDegree(), config.lambda())
                + " > λ but no region met the migration conditions";
        List<Action> merges = ColdMerges.propose(model, rounds.actions(), context);
        if (merges.isEmpty()) {
            return rounds.actions().isEmpty()
                    ? PlanFinisher.unchanged(Plan.empty(name(), before, PlanStatus.STUCK, stuck), model)
                    : PlanFinisher.finish(name(), model, rounds.actions(), rounds.predicted());
        }
        List<Action> actions = new ArrayList<>(rounds.actions());
        actions.addAll(merges);
        return PlanFinisher.finish(name(), model, context, actions, stuck);
    }

    /**
     * Runs the loop again on its own outcome until a run finds nothing more (or Δ ≤ λ): a fresh
     * run forgets which nodes and regions the last one gave up on, and may find more. So the
     * plan is a fixed point: planning its predicted state again gives an empty plan. The first
     * runs raise no new peak ({@link CooperativeRun}: no destination ends above the load it
     * relieves in the other dimension); when one finds nothing more short of λ, the next moves
     * under the paper's conditions alone, whose alternation between the dimensions can need a step
     * past the peak (two nodes, each hot in one dimension, swap their regions), and after it the
     * runs raise no new peak again. The plan ends where neither kind of run finds anything.
     */
    private record Rounds(List<Action> actions, LoadModel predicted) {
    }

    private static Rounds runToFixedPoint(LoadModel model, PlanningContext context) {
        List<Action> all = new ArrayList<>();
        LoadModel current = model;
        PlanApplier applier = new PlanApplier(context.estimation());
        int cap = context.config().maxActions();
        boolean noNewPeak = true;
        int idle = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            // a run weighs the flow of every action the plan holds so far, not only its own
            GrossFlow flows = context.config().flowError() > 0 ? GrossFlow.of(model, current, all)
                    : GrossFlow.none(model.nodeCount());
            List<Action> more = new CooperativeRun(current, context, noNewPeak, flows).schedule();
            if (more.isEmpty()) {
                if (++idle == 2) {
                    break; // neither kind of run finds anything more here: a fixed point
                }
                noNewPeak = !noNewPeak;
                continue;
            }
            idle = 0;
            noNewPeak = true;
            all.addAll(more);
            if (context.config().lazy()) {
                all = new ArrayList<>(PlanOptimizer.optimize(model, all));
            }
            current = applier.apply(model, all);
            if (cap > 0 && all.size() > cap) {
                all = all.subList(0, cap);
                return new Rounds(all, applier.apply(model, all));
            }
            if (cap > 0 && all.size() == cap || current.balance().imbalanceDegree() <= context.config().stopAt()) {
                break;
            }
        }
        return new Rounds(all, current);
    }
}
