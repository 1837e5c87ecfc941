package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.plan.PlanStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FluctuationGuardTest {
    private static ClusterSnapshot window(double cpuA, double cpuB) {
        return new ClusterSnapshot("generic", Instant.EPOCH, 60,
                List.of(new Node("a", 8, cpuA, 100), new Node("b", 8, cpuB, 100)), List.of());
    }

    @Test
    void suspendsWhileConsecutiveWindowsDifferByMoreThanTheThreshold() {
        assertThat(FluctuationGuard.DEFAULT.check(window(2, 2), window(2.9, 2))).get().asString()
                .contains("a cpu load changed by 45%");
    }

    @Test
    void resumesWhenTheGapClosesBelowTheThreshold() {
        assertThat(FluctuationGuard.DEFAULT.check(window(2.9, 2), window(3, 2))).isEmpty();
    }

    @Test
    void thresholdIsConfigurable() {
        assertThat(new FluctuationGuard(0.5).check(window(2, 2), window(2.9, 2))).isEmpty();
    }

    @Test
    void plannerReturnsASuspendedEmptyPlan() {
        var r = Planner.builder().build().plan(window(4, 1), Optional.of(window(1, 1)));
        assertThat(r.plan().status()).isEqualTo(PlanStatus.SUSPENDED);
        assertThat(r.plan().actions()).isEmpty();
    }

    @Test
    void inFluxNamesEveryMovingNodeAndNotTheQuietOnes() {
        ClusterSnapshot before = window(2, 2);
        ClusterSnapshot after = new ClusterSnapshot("generic", Instant.EPOCH, 60,
                List.of(new Node("a", 8, 2.9, 100), new Node("b", 8, 2, 100), new Node("c", 8, 9, 100)), List.of());
        assertThat(FluctuationGuard.DEFAULT.inFlux(before, after))
                .containsExactly(java.util.Map.entry("a", "cpu load changed by 45% of the mean between windows (> 20%)"));
        assertThat(FluctuationGuard.DEFAULT.check(before, after)).contains("node c is new since the previous window");
    }
}
