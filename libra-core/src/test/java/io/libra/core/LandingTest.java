package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.estimate.PredictionCheck;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.SchedulerConfig;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A plan after the first stops inside the hysteresis band, short of 2λ by the last forecast's
 * error; a first plan, or one whose forecast missed by λ or more, plans to λ.
 */
class LandingTest {
    private static final SchedulerConfig PAPER = SchedulerConfig.DEFAULT;

    private static Optional<PredictionCheck> checked(double error) {
        return Optional.of(new PredictionCheck(error, Dimension.CPU, 0.2, false));
    }

    @Test
    void aFirstPlanHasNoLanding() {
        assertThat(Landing.of(PAPER, Optional.empty())).isZero();
        assertThat(PAPER.withLanding(Landing.of(PAPER, Optional.empty())).stopAt()).isEqualTo(PAPER.lambda());
    }

    @Test
    void aCheckedPlanLandsTwoLambdaLessTheForecastsError() {
        assertThat(Landing.of(PAPER, checked(0.021))).isCloseTo(0.079, within(1e-12));
        assertThat(PAPER.withLanding(Landing.of(PAPER, checked(0.021))).stopAt()).isCloseTo(0.079, within(1e-12));
    }

    @Test
    void aForecastThatMissedByLambdaOrMoreLeavesTheLandingAtLambda() {
        assertThat(Landing.of(PAPER, checked(0.05))).isZero();
        assertThat(Landing.of(PAPER, checked(0.3))).isZero();
        assertThat(Landing.of(PAPER, checked(Double.NaN))).isZero();
    }

    @Test
    void aPlanThatStoppedAtTheLandingSaysSo() {
        Planner planner = Planner.builder().config(PAPER.withLanding(0.08)).build();
        Plan p = planner.plan(planner.estimate(Clusters.dualImbalanced(8, 32, 2)));
        Plan explained = Landing.explain(p, PAPER.withLanding(0.08));
        assertThat(explained.detail()).contains("planned down to Δ ≤ 0.080, not λ: 2λ, where the hysteresis holds"
                + " the cluster, less the last forecast's error 2.0%");
        assertThat(explained.actions()).isEqualTo(p.actions());
        assertThat(Landing.explain(p, PAPER).detail()).isEqualTo(p.detail());
    }
}
