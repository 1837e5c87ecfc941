package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A check carried on by a plan held back since the moves it forecast is weighed against the model
 * refitted on the windows since, replayed on the moves the layouts show: the old model's miss does
 * not bound every later plan while nothing moves.
 */
class CarriedCheckTest {
    private final Planner planner = Planner.builder().build();

    /** A plan held back on {@code window}, carrying a forecast for it that was every node off by a quarter. */
    private static Plan heldBackOn(ClusterSnapshot window) {
        List<NodeForecast> missed = new ArrayList<>();
        window.nodes().forEach(n -> missed.add(new NodeForecast(n.id(), n.cpuUsage() * 1.25, n.diskBytesPerSec() * 0.75)));
        Balance b = LoadModel.measuredBalance(window);
        return new Plan("libra", List.of(), b, b, PlanStatus.BALANCED, "held back")
                .withForecast(missed, new Estimation(Estimation.LEARNT, 2, 0.01, 0.25, ""));
    }

    @Test
    void aHeldBackPlansCheckIsBoundByTheRefitsReplayOfTheMovesTheLayoutsShow() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot quiet = Clusters.hotRegionOn("n1", 60);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 120);
        Plan held = heldBackOn(quiet);

        PredictionCheck c = planner.plan(new PlanRequest(now, List.of(before, quiet), held, false)).check().orElseThrow();

        assertThat(c.carried()).isTrue();
        assertThat(c.error()).isGreaterThan(0.2);
        assertThat(c.refitted()).isTrue();
        assertThat(c.bound()).isLessThan(0.05);
        assertThat(c.describe()).contains("the model refitted on this window would have been off by");
    }

    @Test
    void withoutAWindowOfTheLayoutBeforeTheMovesTheCarriedMissBounds() {
        ClusterSnapshot quiet = Clusters.hotRegionOn("n1", 60);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 120);

        PredictionCheck c = planner.plan(new PlanRequest(now, List.of(quiet), heldBackOn(quiet), false)).check().orElseThrow();

        assertThat(c.carried()).isTrue();
        assertThat(c.refitted()).isFalse();
        assertThat(c.bound()).isEqualTo(c.error());
    }
}
