package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The previous plan's actions replayed with the model refitted on the window that measured them: the
 * window the plan was made on, its node totals shared among its regions by the current estimate,
 * each action carried out on it (regions moved, split, merged), against what the nodes measure now, by the forecast
 * check's measure. A forecast that missed because the model was wrong, and that the refit has
 * learnt from (a node that runs its work at a speed of its own, {@link NodeBackgrounds}), replays
 * closely; a miss the model cannot express (a region that costs more on one node for a reason no
 * counter shows) replays as badly as it was forecast. {@link RealisedShare} reads the replay too.
 */
public final class Hindcast {
    private Hindcast() {
    }

    /**
     * How far the refitted model is off: the larger of its error replaying the previous plan's actions
     * ({@link #replayed}) and its held-out error on the nodes now, so that it must both have learnt
     * what the actions did and explain the nodes as they are; NaN without a replay.
     */
    public static double refitError(Optional<LoadModel> replayed, ClusterSnapshot now, Estimator.Estimate estimate) {
        return replayed.map(after -> error(after, now)).map(e -> Math.max(e, estimate.estimation().fitError()))
                .orElse(Double.NaN);
    }

    /**
     * The previous plan's actions carried out on {@code before} as the current estimate shares it:
     * what the refitted model says those actions did; empty unless {@code previous} was made on
     * {@code before} and {@code carryOut} can apply every action there (a plan's actions applied to
     * a model, split halves estimated as the planner estimated them).
     */
    public static Optional<LoadModel> replayed(Plan previous, ClusterSnapshot before, Estimator estimator,
                                               Estimator.Estimate estimate,
                                               BiFunction<LoadModel, List<Action>, LoadModel> carryOut) {
        if (!replayable(previous, before)) {
            return Optional.empty();
        }
        try {
            return Optional.of(carryOut.apply(estimator.share(before, estimate), previous.actions()));
        } catch (InvalidPlanException e) {
            return Optional.empty();
        }
    }

    /**
     * For a check carried on by plans held back since the moves it forecast: those moves replayed as
     * the layout changed, from the newest window of {@code history} with another layout to {@code now},
     * on the model refitted with every window since. The carried forecast was the old model's, and
     * without this its miss would bound every later plan for as long as nothing moves, however much
     * the windows since have taught the refit. A region split or merged since counts as moved to
     * the node its pieces (or the region it went into) sit on now; empty unless that window has the
     * same nodes, every region of it is on one node now, and some region changed node.
     */
    public static Optional<LoadModel> layoutReplayed(ClusterSnapshot now, List<ClusterSnapshot> history, Estimator estimator,
                                                     Estimator.Estimate estimate,
                                                     BiFunction<LoadModel, List<Action>, LoadModel> carryOut) {
        Map<String, String> layout = now.placement();
        for (int i = history.size() - 1; i >= 0; i--) {
            ClusterSnapshot w = history.get(i);
            Optional<List<Action>> moves = w.nodeIds().equals(now.nodeIds()) ? moves(w, now, layout) : Optional.empty();
            if (moves.isEmpty()) {
                return Optional.empty();
            }
            if (!moves.get().isEmpty()) {
                try {
                    return Optional.of(carryOut.apply(estimator.share(w, estimate), moves.get()));
                } catch (InvalidPlanException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The moves that take {@code w}'s regions to where {@code now} has them ({@code layout}), a region
     * gone since to the one node the regions sharing its keys sit on now; empty when some region's
     * are on several nodes or none.
     */
    private static Optional<List<Action>> moves(ClusterSnapshot w, ClusterSnapshot now, Map<String, String> layout) {
        List<Action> out = new ArrayList<>();
        for (Region r : w.regions()) {
            Set<String> to = layout.containsKey(r.id()) ? Set.of(layout.get(r.id())) : now.nodesSharingKeysWith(r);
            if (to.size() != 1) {
                return Optional.empty();
            }
            String node = to.iterator().next();
            if (!node.equals(r.node())) {
                out.add(new MoveAction(r.id(), r.node(), node, r.sizeBytes(), null));
            }
        }
        return Optional.of(out);
    }

    /** Whether {@code previous} was made on {@code before} and has actions. */
    static boolean replayable(Plan previous, ClusterSnapshot before) {
        return previous != null && before != null && !previous.actions().isEmpty() && RealisedShare.madeOn(previous, before);
    }

    private static double error(LoadModel after, ClusterSnapshot now) {
        double[] e = PredictionCheck.errors(after.forecast(), now);
        return e == null ? Double.NaN : Math.max(e[0], e[1]);
    }
}
