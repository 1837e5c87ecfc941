package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** After two changes of layout that each measured no gain in Δ, the planner holds. */
class StallTest {
    private final Planner planner = Planner.builder().build();

    private static ClusterSnapshot window(String node, double extra) {
        return Clusters.tenEachAndOneMore(node, extra);
    }

    private static double delta(ClusterSnapshot s) {
        return LoadModel.measuredBalance(s).imbalanceDegree();
    }

    private Plan plan(ClusterSnapshot now, List<ClusterSnapshot> history, Plan previous) {
        return planner.plan(new PlanRequest(now, history, previous, false)).plan();
    }

    @Test
    void twoMovesThatEachMeasuredNoGainHoldThePlanAndTheDetailSaysWhy() {
        ClusterSnapshot n0 = window("n0", 200);
        ClusterSnapshot n1 = window("n1", 200);
        ClusterSnapshot n2 = window("n2", 200);
        assertThat(delta(n2)).isBetween(0.10, 0.20);
        assertThat(plan(n2, List.of(), null).status()).isEqualTo(PlanStatus.PLANNED);

        Plan held = plan(n2, List.of(n0, n1), null);
        assertThat(held.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(held.actions()).isEmpty();
        assertThat(held.detail()).startsWith("stalled: the last 2 windows in which regions moved measured Δ")
                .contains("none lower by λ/2");
    }

    @Test
    void aMoveThatGainedIsNoStall() {
        ClusterSnapshot before = window("n0", 300);
        ClusterSnapshot after = window("n1", 200);
        ClusterSnapshot now = window("n2", 200);
        assertThat(delta(before) - delta(after)).isGreaterThan(0.025);
        assertThat(Stall.of(now, List.of(before, after), null, SchedulerConfig.DEFAULT, Optional.empty())).isEmpty();
        assertThat(plan(now, List.of(before, after), null).status()).isEqualTo(PlanStatus.PLANNED);
    }

    @Test
    void oneFruitlessMoveIsNoStall() {
        assertThat(Stall.of(window("n1", 200), List.of(window("n0", 200)), null, SchedulerConfig.DEFAULT,
                Optional.empty())).isEmpty();
    }

    @Test
    void aClusterFarOutOfBalanceIsNotHeld() {
        ClusterSnapshot now = window("n2", 600);
        assertThat(delta(now)).isGreaterThan(Stall.CEILING * SchedulerConfig.DEFAULT.lambda());
        assertThat(Stall.of(now, List.of(window("n0", 600), window("n1", 600)), null, SchedulerConfig.DEFAULT,
                Optional.empty())).isEmpty();
    }

    @Test
    void theHoldGoesOnWhileTheMovesAreInTheWindowsAndDeltaStaysWithinLambda() {
        ClusterSnapshot n0 = window("n0", 200);
        ClusterSnapshot n1 = window("n1", 200);
        ClusterSnapshot n2 = window("n2", 200);
        Plan held = plan(n2, List.of(n0, n1), null);

        Plan again = plan(n2, List.of(n1, n2), held);
        assertThat(again.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(again.detail()).startsWith("stalled: held since moves measured no gain");

        // the cluster moved on by more than λ: planning resumes
        assertThat(plan(window("n2", 320), List.of(n1, n2), held).status()).isEqualTo(PlanStatus.PLANNED);
        // the fruitless moves have left the windows: planning resumes, to try again
        assertThat(plan(n2, List.of(n2, n2, n2), held).status()).isEqualTo(PlanStatus.PLANNED);
    }
}
