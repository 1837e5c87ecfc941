package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.SchedulerConfig;
import org.junit.jupiter.api.Test;

/**
 * The closed loop run by a caller that keeps only the windows, as `libra plan --history` without
 * {@code --previous-plan} is run: each round recalls the plan made on the last window by planning the
 * windows again ({@link io.libra.core.ReplayedRounds}). Numbers: docs/benchmarks.md.
 */
class ClosedLoopRecallTest {
    private static Planner planner() {
        return Planner.builder().config(SchedulerConfig.DEFAULT).build();
    }

    /**
     * While the windows kept reach back to the first, planning them again recalls every plan that was
     * carried out, checks and holds included, so the loop plans exactly as one that keeps its plans:
     * on byte-cpu seed 3 under node-speed, 115 moves, 87 moves, a hold, a measured step of 3.
     */
    @Test
    void whileTheWindowsReachTheFirstTheLoopPlansAsOneThatKeepsItsPlans() {
        ClosedLoop kept = new ClosedLoop(Scenario.byName("byte-cpu"), 3, planner(), CostModel.Form.NODE_SPEED, false);
        ClosedLoop recalled = new ClosedLoop(Scenario.byName("byte-cpu"), 3, planner(), CostModel.Form.NODE_SPEED, true);
        for (int round = 0; round <= Simulator.HISTORY_WINDOWS; round++) {
            kept.round();
            recalled.round();
            Plan k = kept.lastPlan();
            Plan r = recalled.lastPlan();
            assertThat(r.actions()).as("round %d", round).isEqualTo(k.actions());
            assertThat(r.forecast()).as("round %d", round).isEqualTo(k.forecast());
            assertThat(r.detail()).as("round %d", round).isEqualTo(k.detail());
        }
    }

    /**
     * ycsb-a seed 1 under `blocks`: balanced by its first plan (3.0 GiB moved). Given the windows
     * alone and no recall, each round planned afresh on whatever Δ the window's noise showed and moved
     * 768 MiB more over rounds 4-8; recalled, the hysteresis holds as in a loop that keeps its plans.
     */
    @Test
    void givenOnlyTheWindowsABalancedLoopStaysPut() {
        ClosedLoop.Run run = ClosedLoop.run(new ClosedLoop(Scenario.byName("ycsb-a"), 1, planner(),
                CostModel.Form.BLOCKS, true), 8);
        double first = run.moved().get(0);
        double later = run.moved().subList(3, 8).stream().mapToDouble(Double::doubleValue).sum();

        assertThat(first).isPositive();
        assertThat(later / first).as("data moved after the third window / by the first").isLessThanOrEqualTo(0.10);
        Score end = run.after().get(7);
        assertThat(Math.max(end.cpuMaxOverMean(), end.diskMaxOverMean())).isLessThanOrEqualTo(1.10);
    }
}
