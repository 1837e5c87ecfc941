package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class PlannerMetricsTest {
    @Test
    void plansAreMeteredWhenARegistryIsGiven() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PlanResult r = Planner.builder().meterRegistry(registry).build().plan(Clusters.dualImbalanced(4, 8, 1));
        assertThat(registry.get("libra.imbalance.degree").gauge().value())
                .isEqualTo(r.before().balance().imbalanceDegree());
        assertThat(registry.get("libra.cpu.max.over.mean").gauge().value()).isGreaterThan(1);
        assertThat(registry.get("libra.disk.max.over.mean").gauge().value()).isGreaterThan(1);
        assertThat(registry.get("libra.actions.planned").counter().count()).isEqualTo(r.plan().actions().size());
        assertThat(registry.get("libra.moves.taken.back").counter().count()).isZero();
        assertThat(registry.get("libra.measured.steps").counter().count()).as("a first plan is no step").isZero();
        assertThat(registry.get("libra.plan.time").timer().count()).isEqualTo(1);
    }

    @Test
    void noGaugeShowsNaNBeforeItHasAValue() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Planner planner = Planner.builder().meterRegistry(registry).build();
        assertThat(registry.find("libra.imbalance.degree").gauge()).isNull();
        PlanResult r = planner.plan(Clusters.dualImbalanced(12, 8, 1));
        assertThat(r.plan().estimation().fitError()).as("12 nodes are enough to fit").isFinite();
        assertThat(registry.find("libra.prediction.error").gauge()).as("no forecast checked yet").isNull();
        assertThat(registry.getMeters()).allSatisfy(m -> m.measure()
                .forEach(x -> assertThat(x.getValue()).as(m.getId().getName()).isFinite()));
        assertThat(registry.get("libra.estimation.fit.error").gauge().value()).isFinite();
        assertThat(registry.find("libra.estimation.flow.error").gauge()).as("a first plan weighs no flow").isNull();
    }

    /** After a plan, the next one weighs the error its moves' traffic brings, and the gauge says how much. */
    @Test
    void theFlowErrorAppearsOnceAPlanHasBeenMade() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Planner planner = Planner.builder().meterRegistry(registry).build();
        io.libra.core.model.ClusterSnapshot s = Clusters.dualImbalanced(12, 8, 1);
        PlanResult first = planner.plan(s);
        planner.plan(new PlanRequest(s, java.util.List.of(), first.plan(), false));
        assertThat(registry.get("libra.estimation.flow.error").gauge().value()).isEqualTo(
                io.libra.core.estimate.FlowFit.PRIOR.rate());
    }

    @Test
    void noRegistryIsNeeded() {
        assertThat(Planner.builder().build().plan(Clusters.dualImbalanced(4, 8, 1)).plan()).isNotNull();
    }
}
