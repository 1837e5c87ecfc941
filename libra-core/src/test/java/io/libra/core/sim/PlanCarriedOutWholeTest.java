package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A first plan is one the executor carries out whole, in order: it refuses to split a region
 * being moved, and then has no halves to move, so a plan that splits what it moved is left half
 * done. In calm seeds 10 and 23 under disk-speed the block cache learnt from one window moved
 * regions to nodes its own moves heated, then split them there: 170 of 566 and 333 of 720 actions
 * were refused, and the true Max/Mean went to 1.43/1.99 and 2.19/2.26.
 */
class PlanCarriedOutWholeTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @ParameterizedTest(name = "{0} seed {1} under {2}")
    @CsvSource({"calm,10,disk-speed", "calm,23,disk-speed", "ycsb-d,3,blocks", "paper-mixgraph,2,disk-speed",
            "hotspot-shift,7,blocks"})
    void noActionOfTheFirstPlanIsRefused(String scenario, long seed, String form) {
        Scenario s = Scenario.byName(scenario);
        CostModel cost = CostModel.drawn(s, seed).withForm(CostModel.Form.byName(form).orElseThrow());
        SimCluster cluster = SimCluster.initial(s, seed);
        Workload w = new Simulator(cost).workloads(s, seed, cluster).get(0);
        Executor exec = new Executor(cost, Simulator.WINDOW_SECONDS);
        exec.run(cluster, null, w);
        // the first window exactly as ClosedLoop measures it
        ClusterSnapshot first = cluster.measure(w, exec.run(cluster, null, w).truth(), Simulator.WINDOW_SECONDS, START,
                new SplittableRandom(seed * 1_000_003L + 1));
        Plan plan = Planner.builder().learning(true).build().plan(PlanRequest.of(first)).plan();
        Executor.Done done = exec.run(cluster, plan, w);
        assertThat(done.skipped()).as("%d actions: %s", plan.actions().size(), plan.detail()).isZero();
    }
}
