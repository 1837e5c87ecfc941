package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
     * The replayed error; NaN unless {@code previous} was made on {@code before} and only moved regions.
     *
     * @param share a window's node totals shared among its regions by the current estimate
     */
    public static double error(Plan previous, ClusterSnapshot before, ClusterSnapshot now,
                               Function<ClusterSnapshot, LoadModel> share) {
        if (previous == null || before == null || previous.actions().isEmpty() || !RealisedShare.madeOn(previous, before)) {
            return Double.NaN;
        }
        LoadModel replayed = share.apply(before);
        Map<String, String> to = new HashMap<>();
        for (Action a : previous.actions()) {
            if (!(a instanceof MoveAction m) || !replayed.hasNode(m.to())) {
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
