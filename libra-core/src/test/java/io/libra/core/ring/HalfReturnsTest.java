package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HalfReturnsTest {
    /** n1 holds segments 0-5 and most of the load, n3 (11-15) more than n2 (6-10): n1's token goes back to 2. */
    private static final double[] LOAD = {5, 5, 5, 4, 4, 4, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3};
    private static final RingLoad RING = RingPlannerTest.ring(new int[] {5, 10, 15}, LOAD, LOAD, 1);
    private static final RingPlannerConfig CONFIG = new RingPlannerConfig(0.05, 4, 0, 1, 0.001);

    private static long segment(int i) {
        return RING.segments().get(i).endToken();
    }

    /** Where n1's token ends under the plan, in segments from the ring's start. */
    private static int n1After(RingPlan plan) {
        long token = RingPlannerTest.applied(RING, plan).nodes().stream().filter(n -> n.id().equals("n1")).findFirst()
                .orElseThrow().token();
        for (int i = 0; i < LOAD.length; i++) {
            if (segment(i) == token) {
                return i;
            }
        }
        throw new AssertionError("n1's token is not at a segment's end");
    }

    @Test
    void aReturnGoesAtMostHalfwayBackToTheTokenTheNodeLeft() {
        RingPlan free = new RingPlanner(CONFIG).plan(RING);
        assertThat(n1After(free)).as("unbounded, n1 goes back to segment 2").isEqualTo(2);
        HalfReturns left = new HalfReturns(Map.of("n1", List.of(new HalfReturns.Left(segment(0), 1))), 1);
        RingPlan halved = new RingPlanner(CONFIG, left).plan(RING);
        assertThat(n1After(halved)).as("no more than halfway from segment 5 back to segment 0").isEqualTo(3);
        assertThat(halved.predicted().imbalanceDegree()).as("the forecast is of the halved layout")
                .isGreaterThan(free.predicted().imbalanceDegree());
    }

    @Test
    void aMoveTheOtherWayOrToNoTokenLeftIsFree() {
        RingPlan free = new RingPlanner(CONFIG).plan(RING);
        HalfReturns ahead = new HalfReturns(Map.of("n1", List.of(new HalfReturns.Left(segment(8), 1))), 1);
        assertThat(n1After(new RingPlanner(CONFIG, ahead).plan(RING))).isEqualTo(n1After(free));
        HalfReturns other = new HalfReturns(Map.of("n2", List.of(new HalfReturns.Left(segment(1), 1))), 1);
        assertThat(n1After(new RingPlanner(CONFIG, other).plan(RING))).isEqualTo(n1After(free));
    }

    @Test
    void tokensLeftAreForgottenThreeRoundsOn() {
        HalfReturns r = HalfReturns.NONE.next().after(moved("n1", 1, 5));
        assertThat(r.left().get("n1")).extracting(HalfReturns.Left::token).containsExactly(segment(1));
        r = r.next().after(moved("n2", 6, 8)).next().after(held()).next();
        assertThat(r.left()).as("a held plan moved nothing; n1's token was left three rounds ago")
                .containsOnlyKeys("n1", "n2");
        r = r.after(moved("n2", 8, 9)).next();
        assertThat(r.left()).as("n1's token, left four rounds ago, is forgotten").containsOnlyKeys("n2");
        assertThat(r.left().get("n2")).extracting(HalfReturns.Left::token).containsExactly(segment(6), segment(8));
    }

    private static Plan moved(String node, int from, int to) {
        Reason why = new Reason(Dimension.CPU, List.of(), null, null, "test");
        return plan(List.of(new MoveTokenAction(node, Tokens.toKey(segment(from)), Tokens.toKey(segment(to)), why, 0)));
    }

    private static Plan held() {
        return plan(List.of());
    }

    private static Plan plan(List<io.libra.core.plan.Action> actions) {
        Balance b = new Balance(1, 1, 0);
        return new Plan("ring", actions, b, b, PlanStatus.PLANNED, "");
    }
}
