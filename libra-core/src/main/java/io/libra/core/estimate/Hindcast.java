package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The previous plan's moves replayed with the model refitted on the window that measured them: the
 * window the plan was made on, its node totals shared among its regions by the current estimate,
 * each moved region carried to where it went, against what the nodes measure now, by the forecast
 * check's measure. A forecast that missed because the model was wrong, and that the refit has
 * learnt from, replays closely; a miss the model cannot express (a cost that depends on the node a
 * region sits on) replays as badly as it was forecast.
 */
public final class Hindcast {
    private Hindcast() {
    }

    /**
     * How far the refitted model is off: the larger of its error replaying the previous plan's moves
     * and its held-out error on the nodes now, so that it must both have learnt what the moves did and
     * explain the nodes as they are; NaN unless {@code previous} was made on {@code before} and only
     * moved regions.
     */
    public static double refitError(Plan previous, ClusterSnapshot before, ClusterSnapshot now, Estimator estimator,
                                    Estimator.Estimate estimate) {
        if (!replayable(previous, before)) {
            return Double.NaN;
        }
        return Math.max(replay(previous, estimator.share(before, estimate), now), estimate.estimation().fitError());
    }

    /** Whether {@code previous} was made on {@code before} and its actions are all moves. */
    static boolean replayable(Plan previous, ClusterSnapshot before) {
        if (previous == null || before == null || previous.actions().isEmpty() || !RealisedShare.madeOn(previous, before)) {
            return false;
        }
        return previous.actions().stream().allMatch(a -> a instanceof MoveAction);
    }

    /** The error of {@code previous}'s moves carried out on {@code replayed}; NaN when one went to a node it lacks. */
    static double replay(Plan previous, LoadModel replayed, ClusterSnapshot now) {
        Map<String, String> to = new HashMap<>();
        for (Action a : previous.actions()) {
            MoveAction m = (MoveAction) a;
            if (!replayed.hasNode(m.to())) {
                return Double.NaN;
            }
            to.put(m.region(), m.to());
        }
        List<RegionLoad> moved = new ArrayList<>(replayed.regions().size());
        for (RegionLoad r : replayed.regions()) {
            String dst = to.get(r.region().id());
            moved.add(dst == null ? r : new RegionLoad(r.region().onNode(dst), r.cpu(), r.disk()));
        }
        double[] e = PredictionCheck.errors(replayed.withRegions(moved).forecast(), now);
        return e == null ? Double.NaN : Math.max(e[0], e[1]);
    }
}
