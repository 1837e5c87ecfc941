package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.PlanStatus;
import org.junit.jupiter.api.Test;

class CooperativeSchedulerTest {
    @Test
    void dualImbalancedClusterReachesLambdaInBothDimensions() {
        ClusterSnapshot s = Clusters.dualImbalanced(8, 32, 1);
        PlanResult r = Planner.builder().build().plan(s);
        assertThat(r.before().balance().cpuMaxOverMean()).isGreaterThan(1.5);
        assertThat(r.before().balance().diskMaxOverMean()).isGreaterThan(1.5);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(r.predicted().balance().imbalanceDegree()).isLessThanOrEqualTo(0.05 + 1e-9);
        assertThat(r.plan().predicted()).isEqualTo(r.predicted().balance());
    }

    /**
     * On nodes that run a unit of work at different speeds, the plan is made as each region will cost
     * where it goes: it reaches λ there, where the same cluster planned as if work cost the same
     * everywhere does not.
     */
    @Test
    void onNodesOfDifferentSpeedsRegionsArePlannedAtWhatTheyWillCostWhereTheyGo() {
        Planner planner = Planner.builder().build();
        ClusterSnapshot s = Clusters.dualImbalanced(8, 32, 1);
        io.libra.core.estimate.LoadModel sameSpeed = planner.estimate(s);
        io.libra.core.estimate.LoadModel speeds = sameSpeed.withSpeeds(io.libra.core.model.Dimension.CPU, new double[] {0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4});
        io.libra.core.apply.PlanApplier applier = new io.libra.core.apply.PlanApplier(planner.estimation());

        io.libra.core.plan.Plan plan = planner.plan(speeds);
        io.libra.core.plan.Plan blind = planner.plan(sameSpeed);

        assertThat(applier.apply(speeds, plan).balance().imbalanceDegree()).isLessThanOrEqualTo(0.05 + 1e-9);
        assertThat(plan.predicted()).isEqualTo(applier.apply(speeds, plan).balance());
        assertThat(applier.apply(speeds, blind).balance().imbalanceDegree()).isGreaterThan(0.05);
    }

    @Test
    void stuckWhenNoRegionCanMoveOrSplit() {
        ClusterSnapshot s = Clusters.snapshot(2, java.util.List.of(Clusters.region(0, "n0", 100, 0, 100, 0)));
        PlanResult r = Planner.builder().config(SchedulerConfig.DEFAULT.withSplitting(false)).build().plan(s);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.STUCK);
        assertThat(r.plan().actions()).isEmpty();
        assertThat(r.plan().detail()).contains("no region met the migration conditions");
    }

    @Test
    void withoutSplittingARegionMovesWholeWhenTheDestinationStaysBelowTheSource() {
        ClusterSnapshot s = Clusters.snapshot(2, java.util.List.of(Clusters.region(0, "n0", 400, 0, 400, 0),
                Clusters.region(1, "n0", 400, 0, 400, 0), Clusters.region(2, "n1", 100, 0, 100, 0)));
        PlanResult r = Planner.builder().config(SchedulerConfig.DEFAULT.withSplitting(false)).build().plan(s);
        assertThat(r.plan().actions()).singleElement().isInstanceOfSatisfying(io.libra.core.plan.MoveAction.class,
                m -> assertThat(m.reason().passed()).contains(io.libra.core.plan.Constraint.BELOW_SOURCE));
        assertThat(r.predicted().balance().imbalanceDegree()).isLessThan(0.12);
        PlanResult split = Planner.builder().build().plan(s);
        assertThat(split.plan().count("split")).isPositive();
        assertThat(split.predicted().balance().imbalanceDegree()).isLessThanOrEqualTo(0.05);
    }

    @Test
    void maxActionsCapsThePlan() {
        PlanResult r = Planner.builder().config(SchedulerConfig.DEFAULT.withMaxActions(3)).build()
                .plan(Clusters.dualImbalanced(8, 32, 1));
        assertThat(r.plan().actions()).hasSize(3);
        assertThat(r.predicted().balance().imbalanceDegree()).isLessThan(r.before().balance().imbalanceDegree());
    }
}
