package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.schedule.SchedulerConfig;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class RingStrategyTest {
    /** Through the one planner path, a ring plans as the ring planner does on that path's estimate, with its λ. */
    @Test
    void thePlannerPlansARingThroughTheStrategy() {
        ClusterSnapshot s = SnapshotRingTest.snapshot(SnapshotRingTest.RING);
        RingPlannerConfig search = new RingPlannerConfig(0.5, 3, 0, 4, 0.5);
        SchedulerConfig config = SchedulerConfig.DEFAULT.withLambda(0.02);
        PlanResult r = Planner.builder().strategy(RingStrategy.of(s, search)).config(config).learning(false).build().plan(s);
        RingPlan direct = new RingPlanner(new RingPlannerConfig(0.02, 3, 0, 4, config.benefitThreshold()))
                .plan(SnapshotRing.of(s, r.before()));
        assertThat(r.plan().strategy()).isEqualTo("libra-ring/" + direct.method());
        assertThat(direct.moves()).isNotEmpty();
        List<String> planned = r.plan().actions().stream().map(a -> (MoveTokenAction) a)
                .map(m -> m.node() + " " + m.fromToken() + " -> " + m.toToken()).toList();
        assertThat(planned).isEqualTo(direct.moves().stream().map(m -> m.node() + " " + m.fromKey() + " -> " + m.toKey())
                .toList());
        // the predicted model is the ring after the moves, node by node, as the forecast the next window checks
        assertThat(r.predicted().balance().imbalanceDegree()).isCloseTo(direct.predicted().imbalanceDegree(),
                Offset.offset(1e-9));
        assertThat(r.plan().forecast()).hasSize(3);
    }
}
