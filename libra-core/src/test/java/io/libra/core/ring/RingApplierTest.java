package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.PlanStatus;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class RingApplierTest {
    private static final double[] SKEW_CPU = {8, 8, 8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    private static final double[] SKEW_DISK = {1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 1};

    /**
     * The applier is an independent oracle for the planner: it cuts segments at the new tokens
     * instead of moving positions on the planner's grid, and must reach the balance the plan predicts.
     */
    @Property(tries = 150)
    void applyingAPlanReachesItsPredictedBalance(@ForAll @Size(16) List<@DoubleRange(min = 0.1, max = 10) Double> cpu,
                                                 @ForAll @Size(16) List<@DoubleRange(min = 0.1, max = 10) Double> disk,
                                                 @ForAll @IntRange(min = 1, max = 3) int rf,
                                                 @ForAll @IntRange(min = 1, max = 8) int slices) {
        RingLoad ring = RingPlannerTest.ring(new int[] {3, 7, 11, 15}, unbox(cpu), unbox(disk), rf);
        RingPlan plan = new RingPlanner(new RingPlannerConfig(0.05, 3, 0, slices, 0.001)).plan(ring);
        RingApplier.Applied applied = RingApplier.apply(ring, plan.toPlan().actions());
        assertThat(applied.balanceBefore().imbalanceDegree()).isCloseTo(plan.before().imbalanceDegree(), Offset.offset(1e-9));
        assertThat(applied.balanceAfter().imbalanceDegree()).isCloseTo(plan.predicted().imbalanceDegree(), Offset.offset(1e-9));
        assertThat(applied.balanceAfter().cpuMaxOverMean()).isCloseTo(plan.predicted().cpuMaxOverMean(), Offset.offset(1e-9));
        plan.moves().forEach(m -> assertThat(applied.after().nodes()).anyMatch(
                n -> n.id().equals(m.node()) && n.token() == finalToken(plan, m.node())));
    }

    @Test
    void aSkewedRingPlanLowersDeltaWhenApplied() {
        RingLoad ring = RingPlannerTest.ring(new int[] {5, 10, 15}, SKEW_CPU, SKEW_DISK, 1);
        RingPlan plan = new RingPlanner(new RingPlannerConfig(0.05, 3, 0, 4, 0.001)).plan(ring);
        assertThat(plan.status()).isEqualTo(PlanStatus.PLANNED);
        RingApplier.Applied applied = RingApplier.apply(ring, plan.toPlan().actions());
        assertThat(applied.balanceAfter().imbalanceDegree()).isLessThan(applied.balanceBefore().imbalanceDegree() / 2);
        double total = applied.loadsBefore().stream().mapToDouble(RingNodeLoad::cpu).sum();
        assertThat(applied.loadsAfter().stream().mapToDouble(RingNodeLoad::cpu).sum()).isCloseTo(total, Offset.offset(1e-9));
    }

    @Test
    void refusesAnActionThatDoesNotFitTheRing() {
        RingLoad ring = RingPlannerTest.ring(new int[] {5, 10, 15}, SKEW_CPU, SKEW_DISK, 1);
        String n1 = ring.nodes().get(0).tokenKey();
        String n2 = ring.nodes().get(1).tokenKey();
        String inside = Tokens.toKey(ring.nodes().get(0).token() + 1000);
        assertRefused(ring, new MoveTokenAction("n9", n1, inside, null), "actions[0].node: unknown node n9");
        assertRefused(ring, new MoveTokenAction("n1", n2, inside, null),
                "actions[0].fromToken: node n1 holds " + n1 + ", not " + n2);
        assertRefused(ring, new MoveTokenAction("n1", n1, Tokens.toKey(ring.nodes().get(1).token() + 1), null),
                "actions[0].toToken: " + Tokens.toKey(ring.nodes().get(1).token() + 1)
                        + " is not strictly between n1's neighbours on the ring: a token move keeps the nodes' order");
        assertRefused(ring, new MoveTokenAction("n1", n1, "zz", null),
                "actions[0].toToken: token key: must be 16 lowercase hex digits, got zz");
        assertThatThrownBy(() -> RingApplier.apply(ring, List.of(new MoveAction("r1", "n1", "n2", 0, null))))
                .isInstanceOf(InvalidPlanException.class)
                .hasMessage("actions[0].type: a ring plan holds moveToken actions only, got move");
    }

    @Test
    void aMoveInsideASegmentSharesItsLoadByTokenWidth() {
        RingLoad ring = RingPlannerTest.ring(new int[] {5, 10, 15}, SKEW_CPU, SKEW_DISK, 1);
        RingSegment sixth = ring.segments().get(6);
        long prev = ring.segments().get(5).endToken();
        long quarter = Tokens.advance(prev, Tokens.clockwise(prev, sixth.endToken()), 0.25);
        RingNode n1 = ring.nodes().get(0);
        RingApplier.Applied a = RingApplier.apply(ring, List.of(new MoveTokenAction("n1", n1.tokenKey(), Tokens.toKey(quarter), null)));
        // n1 owned segments 0..5 (cpu 8*4 + 1*2); it gains a quarter of segment 6 (cpu 1)
        assertThat(a.loadsAfter().get(0).cpu()).isCloseTo(34.25, Offset.offset(1e-6));
        assertThat(a.after().segments()).hasSize(ring.segments().size() + 1);
    }

    private static void assertRefused(RingLoad ring, MoveTokenAction a, String message) {
        assertThatThrownBy(() -> RingApplier.apply(ring, List.of(a))).isInstanceOf(InvalidPlanException.class)
                .hasMessage(message);
    }

    private static long finalToken(RingPlan plan, String node) {
        long t = 0;
        for (TokenMove m : plan.moves()) {
            if (m.node().equals(node)) {
                t = m.toToken();
            }
        }
        return t;
    }

    private static double[] unbox(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
