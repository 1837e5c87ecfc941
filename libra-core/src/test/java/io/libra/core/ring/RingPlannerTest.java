package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class RingPlannerTest {
    private static final long STEP = Long.MAX_VALUE / 8 + 1;

    /** 16 equal segments; node i owns the token at segment end nodeAt[i]. */
    static RingLoad ring(int[] nodeAt, double[] cpu, double[] disk, int rf) {
        List<RingSegment> segs = new ArrayList<>();
        for (int i = 0; i < cpu.length; i++) {
            long end = Long.MIN_VALUE + (i + 1) * (-(Long.MIN_VALUE / cpu.length) * 2) - 1;
            segs.add(new RingSegment(end, List.of(new ReplicaLoad(rf, cpu[i], disk[i], 1000))));
        }
        List<RingNode> nodes = new ArrayList<>();
        for (int j = 0; j < nodeAt.length; j++) {
            nodes.add(new RingNode("n" + (j + 1), segs.get(nodeAt[j]).endToken()));
        }
        return new RingLoad(nodes, segs);
    }

    static RingLoad applied(RingLoad ring, RingPlan plan) {
        Map<String, Long> tokens = new HashMap<>();
        ring.nodes().forEach(n -> tokens.put(n.id(), n.token()));
        plan.moves().forEach(m -> tokens.put(m.node(), m.toToken()));
        List<RingNode> nodes = new ArrayList<>();
        ring.nodes().forEach(n -> nodes.add(new RingNode(n.id(), tokens.get(n.id()), n.baseCpu(), n.baseDisk(),
                n.cpuCapacity(), n.diskCapacity())));
        return new RingLoad(nodes, ring.segments());
    }

    private static RingPlannerConfig config(int maxMoves) {
        return new RingPlannerConfig(0.05, maxMoves, 0, 1, 0.001);
    }

    @Test
    void skewedRf1RingIsBalancedByTokenMoves() {
        double[] cpu = {8, 8, 8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        double[] disk = {1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 1};
        RingLoad ring = ring(new int[] {5, 10, 15}, cpu, disk, 1);
        RingPlan plan = new RingPlanner(config(3)).plan(ring);
        assertThat(plan.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(plan.predicted().imbalanceDegree()).isLessThan(plan.before().imbalanceDegree() / 2);
        RingLoad after = applied(ring, plan);
        double maxNorm = RingPlanner.loads(after).stream()
                .mapToDouble(l -> Math.max(l.normalizedCpu(), l.normalizedDisk())).max().orElseThrow();
        assertThat(maxNorm - 1).isCloseTo(plan.predicted().imbalanceDegree(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(plan.moves()).allSatisfy(m -> {
            assertThat(m.reason().note()).contains("Δ");
            assertThat(m.fromKey()).isEqualTo(Tokens.toKey(m.fromToken()));
        });
    }

    @Test
    void balancedRingGetsNoMoves() {
        double[] ones = new double[15];
        java.util.Arrays.fill(ones, 1);
        RingPlan plan = new RingPlanner(config(3)).plan(ring(new int[] {4, 9, 14}, ones, ones, 1));
        assertThat(plan.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void fullReplicationCannotBeMovedAndIsNotPlannedOn() {
        double[] cpu = {9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        RingPlan plan = new RingPlanner(config(3)).plan(ring(new int[] {4, 9, 15}, cpu, cpu, 3));
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.before().imbalanceDegree()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void rf2UsesTheGreedyAndStillImproves() {
        double[] cpu = {8, 8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        RingLoad ring = ring(new int[] {3, 7, 11, 15}, cpu, cpu, 2);
        RingPlan plan = new RingPlanner(config(4)).plan(ring);
        assertThat(plan.method()).isEqualTo(RingPlanner.GREEDY);
        assertThat(plan.detail()).contains("skipped");
        assertThat(plan.predicted().imbalanceDegree()).isLessThan(plan.before().imbalanceDegree());
    }

    @Test
    void byteCapShortensMoves() {
        double[] cpu = {8, 8, 8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        RingLoad ring = ring(new int[] {5, 10, 15}, cpu, cpu, 1);
        RingPlan plan = new RingPlanner(new RingPlannerConfig(0.05, 3, 1500, 1, 0.001)).plan(ring);
        assertThat(plan.moves()).isNotEmpty().allSatisfy(m -> assertThat(m.movedBytes()).isLessThanOrEqualTo(1500));
    }

    @Test
    void rejectsARingWhereANodeTokenIsNoSegmentEnd() {
        List<RingSegment> segs = List.of(new RingSegment(0, List.of()), new RingSegment(100, List.of()));
        assertThatThrownBy(() -> new RingLoad(List.of(new RingNode("a", 50)), segs))
                .hasMessageContaining("no segment ends at node a");
    }

    @Provide
    Arbitrary<double[]> loads() {
        return Arbitraries.doubles().between(0, 10).array(double[].class).ofSize(12);
    }

    @Provide
    Arbitrary<int[]> placement() {
        return Arbitraries.integers().between(0, 11).set().ofSize(3)
                .map(s -> s.stream().sorted().mapToInt(Integer::intValue).toArray());
    }

    @Property(tries = 200)
    void bottleneckSearchIsExactAndNeverWorseThanGreedy(@ForAll("loads") double[] cpu, @ForAll("loads") double[] disk,
                                                        @ForAll("placement") int[] at) {
        RingGrid grid = new RingGrid(ring(at, cpu, disk, 1), 1);
        int[] exact = new BottleneckSearch(grid).search(grid.initial).orElseThrow();
        int[] greedy = new GreedySearch(grid, 50).search(grid.initial);
        assertThat(grid.ordered(exact)).isTrue();
        assertThat(grid.imbalance(exact)).isLessThanOrEqualTo(grid.imbalance(greedy) + 1e-9);
        assertThat(grid.imbalance(exact)).isCloseTo(bruteForce(grid), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Property(tries = 200)
    void keepingOneTokenIsOptimalAmongLayoutsThatKeepIt(@ForAll("loads") double[] cpu, @ForAll("loads") double[] disk,
                                                        @ForAll("placement") int[] at) {
        RingGrid grid = new RingGrid(ring(at, cpu, disk, 1), 1);
        for (int f = 0; f < 3; f++) {
            int[] kept = new BottleneckSearch(grid).searchKeeping(grid.initial, f).orElseThrow();
            assertThat(kept[f]).isEqualTo(grid.initial[f]);
            assertThat(grid.ordered(kept)).isTrue();
            double best = Double.POSITIVE_INFINITY;
            for (int a = 0; a < grid.m; a++) {
                for (int b = 0; b < grid.m; b++) {
                    int[] pos = grid.initial.clone();
                    pos[(f + 1) % 3] = a;
                    pos[(f + 2) % 3] = b;
                    if (grid.ordered(pos)) {
                        best = Math.min(best, grid.imbalance(pos));
                    }
                }
            }
            assertThat(grid.imbalance(kept)).isCloseTo(best, org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    private static double bruteForce(RingGrid grid) {
        double best = Double.POSITIVE_INFINITY;
        int m = grid.m;
        for (int a = 0; a < m; a++) {
            for (int b = a + 1; b < m; b++) {
                for (int c = b + 1; c < m; c++) {
                    int[][] rotations = {{a, b, c}, {b, c, a}, {c, a, b}};
                    for (int[] r : rotations) {
                        best = Math.min(best, grid.imbalance(r));
                    }
                }
            }
        }
        return best;
    }

    @Property(tries = 200)
    void plansNeverWorsenKeepOrderAndRespectCaps(@ForAll("loads") double[] cpu, @ForAll("loads") double[] disk,
                                                 @ForAll("placement") int[] at) {
        RingLoad ring = ring(at, cpu, disk, 1);
        RingPlan plan = new RingPlanner(config(2)).plan(ring);
        assertThat(plan.moves()).hasSizeLessThanOrEqualTo(2);
        assertThat(plan.predicted().imbalanceDegree()).isLessThanOrEqualTo(plan.before().imbalanceDegree() + 1e-12);
        RingLoad after = applied(ring, plan);
        List<String> orderBefore = ring.nodes().stream().map(RingNode::id).toList();
        List<String> orderAfter = after.nodes().stream().map(RingNode::id).toList();
        assertThat(isRotation(orderBefore, orderAfter)).isTrue();
    }

    private static boolean isRotation(List<String> a, List<String> b) {
        List<String> doubled = new ArrayList<>(a);
        doubled.addAll(a);
        return java.util.Collections.indexOfSubList(doubled, b) >= 0;
    }

    @Property(tries = 100)
    void replanningABalancedResultPlansNothing(@ForAll("loads") double[] cpu, @ForAll("placement") int[] at) {
        RingLoad ring = ring(at, cpu, cpu, 1);
        RingPlanner planner = new RingPlanner(new RingPlannerConfig(0.3, 5, 0, 1, 0.001));
        RingPlan plan = planner.plan(ring);
        if (plan.predicted().imbalanceDegree() <= 0.3) {
            assertThat(planner.plan(applied(ring, plan)).moves()).isEmpty();
        }
    }
}
