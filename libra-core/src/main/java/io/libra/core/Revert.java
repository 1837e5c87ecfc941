package io.libra.core;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.plan.Action;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import io.libra.core.schedule.PlacementRule;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Takes back moves measured to have made things worse. When the last plan's moves, made on the
 * last window, left the measured Δ higher than that window's (and the workload's own change does
 * not explain it), the model was wrong about the very moves it chose; planning again on the same
 * model would pile new moves on a worse placement. The placement before them is the best one
 * measured, so each of those regions still where the plan sent it goes back. The revert carries
 * the failed forecast on, as a held-back plan does, and names the moves it took back
 * ({@link Plan#takenBack()}), so the rounds after it are conservative against that forecast and
 * do not make the same moves again ({@link Conservative#repeated}). Token moves, which only the
 * ring can undo, are taken back by the strategy ({@link Strategy#takeBack}).
 */
final class Revert {
    private Revert() {
    }

    /**
     * The revert of {@code previous} when its check says its moves left Δ worse; otherwise {@code held}.
     * When the forecast missed by more than it claimed to fix, the model is not to be trusted and the
     * placement before the moves, the best one measured, wins. When it missed by less, the model
     * refitted on this window judges: a rise it does not put on those moves (the window's noise, a
     * cost elsewhere) is no reason to move them again, so they stay unless it forecasts that taking
     * them back lowers Δ. ycsb-f seed 23 under node-speed took back 140 moves for Δ 0.072 → 0.076,
     * with the forecast 1.6% off for a claimed 2.0%, that the model said would leave Δ at 0.090.
     */
    static StrategyOutcome orHeld(StrategyOutcome held, Plan previous, Optional<PredictionCheck> check, LoadModel model,
                                  EstimationConfig estimation, PlacementRule placement, Strategy strategy) {
        if (check.isEmpty() || !check.get().worsened() || check.get().explainedByWorkload() || previous.isRevert()) {
            return held;
        }
        PredictionCheck c = check.get();
        String worse = String.format(Locale.ROOT, "the last plan's moves left the measured Δ worse, %.3f → %.3f",
                c.deltaBefore(), c.deltaNow());
        String taking = worse + ": taking them back";
        // judged on every move taken back, before the store's placement rule is told of any
        Optional<StrategyOutcome> judged = of(previous, c, model, estimation, PlacementRule.ANY, strategy, taking);
        if (judged.isEmpty() || c.error() > c.claimed() || lowers(judged.get(), model)) {
            return placement == PlacementRule.ANY ? judged.orElse(held)
                    : of(previous, c, model, estimation, placement, strategy, taking).orElse(held);
        }
        String why = String.format(Locale.ROOT, "%s, but taking them back is forecast to leave Δ at %.3f, not below %.3f"
                + " now: they stay", worse, judged.get().predicted().balance().imbalanceDegree(),
                model.balance().imbalanceDegree());
        Plan p = held.plan();
        return new StrategyOutcome(p.withActions(p.actions(), p.detail() == null || p.detail().isEmpty() ? why
                : p.detail() + "; " + why), held.predicted());
    }

    private static boolean lowers(StrategyOutcome back, LoadModel model) {
        return back.predicted().balance().imbalanceDegree() < model.balance().imbalanceDegree();
    }

    private static Optional<StrategyOutcome> of(Plan previous, PredictionCheck check, LoadModel model,
                                                EstimationConfig estimation, PlacementRule placement, Strategy strategy,
                                                String why) {
        List<MoveAction> sent = takenBack(previous, model, placement);
        if (sent.isEmpty()) {
            return strategy.takeBack(previous, model, check.dimension(), why);
        }
        List<MoveAction> back = new ArrayList<>(sent.size());
        for (int i = sent.size() - 1; i >= 0; i--) {
            MoveAction m = sent.get(i);
            back.add(new MoveAction(m.region(), m.to(), m.from(), m.sizeBytes(), null));
        }
        LoadModel predicted = new PlanApplier(estimation).apply(model, back);
        List<Action> actions = new ArrayList<>(back.size());
        for (MoveAction m : back) {
            Reason r = new Reason(check.dimension(), List.of(Constraint.REVERT),
                    deviation(model, predicted, m.from()), deviation(model, predicted, m.to()), why);
            actions.add(m.withReason(r));
        }
        return Optional.of(new StrategyOutcome(new Plan(previous.strategy(), actions, model.balance(), predicted.balance(),
                PlanStatus.PLANNED, why).withTakenBack(sent), predicted));
    }

    /**
     * The previous plan's moves, in its order, whose regions are still on the node they were sent to
     * and may go back by the store's placement rule (not when a replica of the region is there now, say).
     */
    private static List<MoveAction> takenBack(Plan previous, LoadModel model, PlacementRule placement) {
        Map<String, String> nodeOf = new HashMap<>();
        model.regions().forEach(r -> nodeOf.put(r.region().id(), r.region().node()));
        List<MoveAction> sent = new ArrayList<>();
        for (Action a : previous.actions()) {
            if (a instanceof MoveAction m && m.to().equals(nodeOf.get(m.region())) && model.hasNode(m.from())
                    && placement.refuseMove(m.region(), m.from()) == null) {
                placement.moved(m.region(), m.from());
                sent.add(new MoveAction(m.region(), m.from(), m.to(), m.sizeBytes(), null));
            }
        }
        return sent;
    }

    private static NodeDeviation deviation(LoadModel before, LoadModel after, String node) {
        return new NodeDeviation(node, before.deviation(before.nodeIndex(node)), after.deviation(after.nodeIndex(node)));
    }
}
