package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.Planner;
import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.GrossFlow;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Plan;
import org.junit.jupiter.api.Test;

/**
 * A run weighs each prefix's Δ with the forecast error its moves' gross flow is expected to bring
 * (SchedulerConfig.flowError): the moves that only trade regions to gain the last hundredths are
 * not kept, and what is kept is no worse by that measure than the paper's plan.
 */
class FlowErrorSchedulingTest {
    private static final SchedulerConfig PAPER = SchedulerConfig.DEFAULT;

    private static LoadModel cluster(long seed) {
        return Planner.builder().build().estimate(Clusters.dualImbalanced(8, 32, seed));
    }

    private static Plan plan(LoadModel m, SchedulerConfig c) {
        return Planner.builder().config(c).build().plan(m);
    }

    /** Δ of the plan's predicted state with each node raised by {@code rate} times its gross flow. */
    private static double atRisk(LoadModel m, Plan p, double rate) {
        LoadModel after = new PlanApplier(EstimationConfig.DEFAULT).apply(m, p);
        GrossFlow g = GrossFlow.of(m, after, p.actions());
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < after.nodeCount(); j++) {
            max = Math.max(max, Normalisation.deviation(after.normalized(j, Dimension.CPU) + rate * g.through(j, Dimension.CPU),
                    after.normalized(j, Dimension.DISK) + rate * g.through(j, Dimension.DISK)));
        }
        return max;
    }

    /** The load the plan moves through the nodes, in and out, summed over nodes and dimensions (each a share of a target). */
    private static double flow(LoadModel m, Plan p) {
        GrossFlow g = GrossFlow.of(m, new PlanApplier(EstimationConfig.DEFAULT).apply(m, p), p.actions());
        double sum = 0;
        for (int j = 0; j < m.nodeCount(); j++) {
            sum += g.through(j, Dimension.CPU) + g.through(j, Dimension.DISK);
        }
        return sum;
    }

    @Test
    void withAFlowErrorAPlanMovesLessLoadAndIsNoWorseCountingTheErrorItBrings() {
        double paperFlow = 0;
        double weighedFlow = 0;
        for (long seed = 1; seed <= 6; seed++) {
            LoadModel m = cluster(seed);
            Plan paper = plan(m, PAPER);
            Plan weighed = plan(m, PAPER.withFlowError(0.1));
            paperFlow += flow(m, paper);
            weighedFlow += flow(m, weighed);
            assertThat(atRisk(m, weighed, 0.1)).as("seed %d", seed).isLessThanOrEqualTo(atRisk(m, paper, 0.1) + 1e-9);
            assertThat(weighed.predicted().imbalanceDegree()).as("seed %d: it still relieves the cluster", seed)
                    .isLessThan(m.balance().imbalanceDegree());
        }
        assertThat(weighedFlow).isLessThan(paperFlow);
    }

    @Test
    void withoutAFlowErrorThePlanIsThePapers() {
        LoadModel m = cluster(3);
        assertThat(plan(m, PAPER.withFlowError(0)).actions()).isEqualTo(plan(m, PAPER).actions());
    }

    /** Where every move's share is small against the error its traffic brings, nothing pays for itself. */
    @Test
    void aFlowErrorAboveWhatAnyMoveGainsLeavesTheClusterAsItIs() {
        LoadModel m = cluster(2);
        Plan p = plan(m, PAPER.withFlowError(0.9));
        assertThat(atRisk(m, p, 0.9)).isLessThanOrEqualTo(m.balance().imbalanceDegree() + 1e-9);
        assertThat(p.actions().size()).isLessThan(plan(m, PAPER).actions().size());
    }
}
