package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import org.junit.jupiter.api.Test;

/**
 * With a landing above λ (SchedulerConfig.stopAt) the cooperative scheduler relieves nodes and
 * stops at the landing: the plan ends within it, with fewer moves than the paper's plan to λ.
 */
class LandingSchedulingTest {
    private static final SchedulerConfig PAPER = SchedulerConfig.DEFAULT;
    private static final double LANDING = 0.08;

    private static LoadModel cluster(long seed) {
        return Planner.builder().build().estimate(Clusters.dualImbalanced(8, 32, seed));
    }

    private static Plan plan(LoadModel m, SchedulerConfig c) {
        return Planner.builder().config(c).build().plan(m);
    }

    @Test
    void aPlanStopsWithinItsLandingWithFewerMoves() {
        int paperMoves = 0;
        int landedMoves = 0;
        for (long seed = 1; seed <= 6; seed++) {
            LoadModel m = cluster(seed);
            Plan paper = plan(m, PAPER);
            Plan landed = plan(m, PAPER.withLanding(LANDING));
            assertThat(paper.predicted().imbalanceDegree()).as("seed %d reaches λ", seed).isLessThanOrEqualTo(PAPER.lambda());
            assertThat(landed.predicted().imbalanceDegree()).as("seed %d", seed).isLessThanOrEqualTo(LANDING);
            assertThat(landed.actions().size()).as("seed %d", seed).isLessThanOrEqualTo(paper.actions().size());
            paperMoves += paper.actions().size();
            landedMoves += landed.actions().size();
        }
        assertThat(landedMoves).isLessThan(paperMoves);
    }

    @Test
    void aClusterWithinTheLandingGetsNoPlan() {
        LoadModel m = cluster(1);
        double delta = m.balance().imbalanceDegree();
        Plan p = plan(m, PAPER.withLanding(delta + 0.01));
        assertThat(p.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(p.actions()).isEmpty();
        assertThat(p.detail()).contains("≤ the landing");
    }

    @Test
    void aLandingBelowLambdaChangesNothing() {
        LoadModel m = cluster(3);
        assertThat(plan(m, PAPER.withLanding(0.03)).actions()).isEqualTo(plan(m, PAPER).actions());
    }
}
