package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A first plan is one the executor carries out whole, in order: it refuses to split a region
 * being moved, and then has no halves to move, so a plan that splits what it moved is left half
 * done. In calm seeds 10 and 23 under disk-speed the block cache learnt from one window moved
 * regions to nodes its own moves heated, then split them there: 170 of 566 and 333 of 720 actions
 * were refused, and the true Max/Mean went to 1.43/1.99 and 2.19/2.26 (under node-speed, calm seed 21:
 * 182 of 329).
 */
class PlanCarriedOutWholeTest {
    @ParameterizedTest(name = "{0} seed {1} under {2}")
    @CsvSource({"calm,10,disk-speed", "calm,23,disk-speed", "ycsb-d,3,blocks", "paper-mixgraph,2,disk-speed",
            "hotspot-shift,7,blocks", "calm,21,node-speed"})
    void noActionOfTheFirstPlanIsRefused(String scenario, long seed, String form) {
        ClosedLoop loop = new ClosedLoop(Scenario.byName(scenario), seed, Planner.builder().learning(true).build(),
                CostModel.Form.byName(form).orElseThrow());
        ClosedLoop.Run run = ClosedLoop.run(loop, 1);
        assertThat(run.planned()).isEqualTo(loop.lastPlan().actions().size());
        assertThat(run.refused()).as("%d actions: %s", run.planned(), loop.lastPlan().detail()).isZero();
    }
}
