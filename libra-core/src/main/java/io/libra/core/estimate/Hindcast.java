package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.Plan;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The previous plan's actions replayed with the model refitted on the window that measured them: the
 * window the plan was made on, its node totals shared among its regions by the current estimate,
 * each action carried out on it (regions moved, split, merged), against what the nodes measure now, by the forecast
 * check's measure. A forecast that missed because the model was wrong, and that the refit has
 * learnt from, replays closely; a miss the model cannot express (a cost that depends on the node a
 * region sits on) replays as badly as it was forecast.
 */
public final class Hindcast {
    private Hindcast() {
    }

    /**
     * How far the refitted model is off: the larger of its error replaying the previous plan's actions
     * and its held-out error on the nodes now, so that it must both have learnt what the actions did
     * and explain the nodes as they are; NaN unless {@code previous} was made on {@code before} and
     * {@code carryOut} can apply its actions there (a plan's actions applied to a model, split
     * halves estimated as the planner estimated them).
     */
    public static double refitError(Plan previous, ClusterSnapshot before, ClusterSnapshot now, Estimator estimator,
                                    Estimator.Estimate estimate, BiFunction<LoadModel, List<Action>, LoadModel> carryOut) {
        if (!replayable(previous, before)) {
            return Double.NaN;
        }
        return Math.max(replay(previous, estimator.share(before, estimate), now, carryOut), estimate.estimation().fitError());
    }

    /** Whether {@code previous} was made on {@code before} and has actions. */
    static boolean replayable(Plan previous, ClusterSnapshot before) {
        return previous != null && before != null && !previous.actions().isEmpty() && RealisedShare.madeOn(previous, before);
    }

    /** The error of {@code previous}'s actions carried out on {@code replayed}; NaN when one does not apply there. */
    static double replay(Plan previous, LoadModel replayed, ClusterSnapshot now,
                         BiFunction<LoadModel, List<Action>, LoadModel> carryOut) {
        LoadModel after;
        try {
            after = carryOut.apply(replayed, previous.actions());
        } catch (InvalidPlanException e) {
            return Double.NaN;
        }
        double[] e = PredictionCheck.errors(after.forecast(), now);
        return e == null ? Double.NaN : Math.max(e[0], e[1]);
    }
}
