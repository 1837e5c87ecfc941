package io.libra.core.ring;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import io.libra.core.schedule.StrategyOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Token moves measured to have left Δ worse, taken back: core's revert ({@code Revert}) for a
 * ring, where a move is a node's token and only the ring can say what moving it back does. Each
 * node still at the token the last plan sent it to goes back, last move first, so a node moved
 * twice retraces both steps.
 */
final class RingTakeBack {
    private RingTakeBack() {
    }

    /**
     * The moves back on {@code ring} (the ring the model's loads are laid on), or empty when no
     * node is still where the plan sent it, or the way back is no longer free (another token moved
     * into it since): then nothing is taken back rather than a part.
     */
    static Optional<StrategyOutcome> of(Plan previous, LoadModel model, RingLoad ring, Dimension dimension, String why) {
        List<MoveTokenAction> back = reversed(previous, ring);
        if (back.isEmpty()) {
            return Optional.empty();
        }
        RingApplier.Applied applied;
        try {
            applied = RingApplier.apply(ring, back);
        } catch (InvalidPlanException e) {
            return Optional.empty();
        }
        LoadModel predicted = SnapshotRing.perNode(model.nodes(), applied.loadsAfter());
        List<Action> actions = new ArrayList<>(back.size());
        for (MoveTokenAction m : back) {
            actions.add(m.withReason(reason(model, predicted, dimension, why + "; " + m.node() + "'s token "
                    + m.fromToken() + " -> " + m.toToken() + " back")));
        }
        return Optional.of(new StrategyOutcome(new Plan(previous.strategy(), actions, model.balance(),
                predicted.balance(), PlanStatus.PLANNED, why), predicted));
    }

    private static List<MoveTokenAction> reversed(Plan previous, RingLoad ring) {
        Map<String, String> at = new HashMap<>();
        ring.nodes().forEach(n -> at.put(n.id(), n.tokenKey()));
        List<MoveTokenAction> back = new ArrayList<>();
        List<Action> sent = previous.actions();
        for (int i = sent.size() - 1; i >= 0; i--) {
            if (sent.get(i) instanceof MoveTokenAction m && m.toToken().equals(at.get(m.node()))) {
                back.add(new MoveTokenAction(m.node(), m.toToken(), m.fromToken(), null, m.sizeBytes()));
                at.put(m.node(), m.fromToken());
            }
        }
        return back;
    }

    /** The node the moves back relieve most as the source, the one they load most as the destination. */
    private static Reason reason(LoadModel before, LoadModel after, Dimension dimension, String note) {
        int source = 0;
        int destination = 0;
        for (int i = 0; i < before.nodes().size(); i++) {
            if (change(before, after, i) < change(before, after, source)) {
                source = i;
            }
            if (change(before, after, i) > change(before, after, destination)) {
                destination = i;
            }
        }
        return new Reason(dimension, List.of(Constraint.REVERT), deviation(before, after, source),
                deviation(before, after, destination), note);
    }

    private static double change(LoadModel before, LoadModel after, int i) {
        return after.deviation(i) - before.deviation(i);
    }

    private static NodeDeviation deviation(LoadModel before, LoadModel after, int i) {
        return new NodeDeviation(before.nodes().get(i).id(), before.deviation(i), after.deviation(i));
    }
}
