package io.libra.core;

import io.libra.core.estimate.Estimator;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Estimation;
import io.libra.core.schedule.SchedulerConfig;
import java.time.Instant;
import java.util.Optional;

/**
 * What the planner knows of a window before it schedules: the estimated load model, the check of
 * the previous plan's forecast against this window, how the estimate was made, and the scheduler
 * settings that check calls for (conservative after a miss). An adapter that schedules with its
 * own search (the Cassandra ring planner) takes this, plans, and hands its outcome to
 * {@link Planner#finish}, so every plan gets the same estimate, noise check and forecast.
 *
 * @param started        when the round began (for the plan's duration)
 * @param afterBalanced  whether the previous round found the cluster balanced (see {@link Hysteresis})
 * @param rival          a second model of the window that explains it about as well, as {@code model}
 *                       was made from the estimate ({@link RivalModels}); empty when there is none
 * @param quiet          the node totals of this window and the earlier ones in which no region moved,
 *                       averaged, when there are such windows (for {@link Hysteresis})
 * @param step           the quiet windows over which the nodes call for a {@link MeasuredStep} out of a hold
 *                       that cannot end by itself ({@code config} then the operator's, capped); empty when this
 *                       round takes none. Kept on a part of the cluster, whose {@code quiet} is empty
 * @param stall          the windows' evidence that moves measure no gain, so this round holds ({@link Stall});
 *                       empty on a part of the cluster, as {@code quiet}
 */
public record Assessment(ClusterSnapshot snapshot, LoadModel model, Optional<PredictionCheck> check,
                         Estimation estimation, SchedulerConfig config, Instant started, boolean afterBalanced,
                         Optional<Estimator.Rival> rival, Optional<QuietWindows> quiet,
                         Optional<QuietWindows> step, Optional<Stall> stall) {

    /**
     * The same assessment on a model of part of the cluster (one table's regions), begun at
     * {@code at}: no rival, and Δ judged on this window alone, since the averaged node totals of
     * {@link QuietWindows} do not tell that part's Δ.
     */
    public Assessment on(LoadModel part, Instant at) {
        return new Assessment(snapshot, part, check, estimation, config, at, afterBalanced, Optional.empty(), Optional.empty(),
                step, Optional.empty());
    }

    /** The same assessment on the rival model of the same window and cluster ({@link RivalModels}); no rival of its own. */
    Assessment onRival(LoadModel rivalModel) {
        return new Assessment(snapshot, rivalModel, check, estimation, config, started, afterBalanced, Optional.empty(), quiet,
                step, stall);
    }

    /**
     * Whether the last forecast missed by more than its plan claimed to fix, so this round plans
     * conservatively; a round that takes a measured step plans at the operator's settings instead.
     */
    public boolean conservative() {
        return step.isEmpty() && check.map(PredictionCheck::conservative).orElse(false);
    }
}
