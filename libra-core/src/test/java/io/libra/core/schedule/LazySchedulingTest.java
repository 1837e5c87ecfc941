package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.Planner;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.MetricMapping;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LazySchedulingTest {
    private static final Reason WHY = new Reason(io.libra.core.model.Dimension.CPU, List.of(), null, null, "");

    private static LoadModel threeNodes() {
        List<Region> rs = List.of(Clusters.region(0, "n0", 100, 0, 100, 0), Clusters.region(1, "n1", 100, 0, 100, 0),
                Clusters.region(2, "n2", 100, 0, 100, 0));
        return new MetricMapping(EstimationConfig.DEFAULT).estimate(Clusters.snapshot(3, rs));
    }

    private static MoveAction move(String r, String from, String to) {
        return new MoveAction(r, from, to, 1, WHY);
    }

    @Test
    void aRegionMovedTwiceBecomesOneMove() {
        List<Action> out = PlanOptimizer.optimize(threeNodes(), List.of(move("r0", "n0", "n1"), move("r0", "n1", "n2")));
        assertThat(out).usingRecursiveFieldByFieldElementComparatorIgnoringFields("reason")
                .containsExactly(move("r0", "n0", "n2"));
        assertThat(((MoveAction) out.get(0)).reason().note()).startsWith("hops merged n0 → n2");
    }

    @Test
    void aMoveAndItsReverseVanish() {
        List<Action> out = PlanOptimizer.optimize(threeNodes(), List.of(move("r0", "n0", "n1"), move("r1", "n1", "n2"),
                move("r0", "n1", "n0")));
        assertThat(out).containsExactly(move("r1", "n1", "n2"));
    }

    @Test
    void splitsNotNeededByAnAcceptedMoveAreDropped() {
        SplitAction kept = new SplitAction("r0", "00000000aa", "r0.l", "r0.r", 0.5, WHY);
        SplitAction dropped = new SplitAction("r1", "000000018a", "r1.l", "r1.r", 0.5, WHY);
        List<Action> out = PlanOptimizer.optimize(threeNodes(), List.of(kept, dropped, move("r0.l", "n0", "n2"),
                move("r1.l", "n1", "n2"), move("r1.l", "n2", "n1")));
        assertThat(out).containsExactly(kept, move("r0.l", "n0", "n2"));
    }

    @Test
    void aSplitOfAPieceKeepsItsParentSplit() {
        SplitAction parent = new SplitAction("r0", "00000000aa", "r0.l", "r0.r", 0.5, WHY);
        SplitAction child = new SplitAction("r0.r", "00000000cc", "r0.r.l", "r0.r.r", 0.5, WHY);
        List<Action> out = PlanOptimizer.optimize(threeNodes(), List.of(parent, child, move("r0.r.l", "n0", "n1")));
        assertThat(out).containsExactly(parent, child, move("r0.r.l", "n0", "n1"));
    }

    @Test
    void lazySchedulingNeedsNoMoreActionsThanTheEagerLoop() {
        ClusterSnapshot s = Clusters.dualImbalanced(8, 32, 11);
        Plan lazy = Planner.builder().build().plan(s).plan();
        Plan eager = Planner.builder().config(SchedulerConfig.DEFAULT.withLazy(false)).build().plan(s).plan();
        assertThat(lazy.predicted().imbalanceDegree()).isLessThanOrEqualTo(0.05);
        assertThat(lazy.actions().size()).isLessThanOrEqualTo(eager.actions().size());
    }

    @Test
    void aLazyPlanHasNoRedundantActions() {
        for (long seed = 1; seed <= 20; seed++) {
            Plan p = Planner.builder().build().plan(Clusters.dualImbalanced(6, 24, seed)).plan();
            java.util.Set<String> moved = new java.util.HashSet<>();
            java.util.Set<String> movedOrSplitLater = new java.util.HashSet<>();
            for (int i = p.actions().size() - 1; i >= 0; i--) {
                Action a = p.actions().get(i);
                if (a instanceof MoveAction m) {
                    assertThat(moved.add(m.region())).as("%s moved twice", m.region()).isTrue();
                    assertThat(m.from()).isNotEqualTo(m.to());
                    movedOrSplitLater.add(m.region());
                } else if (a instanceof SplitAction sp) {
                    assertThat(movedOrSplitLater).as("a piece of %s is used", sp.region())
                            .containsAnyOf(sp.left(), sp.right());
                    movedOrSplitLater.add(sp.region());
                }
            }
        }
    }

    @Test
    void aHotRegionIsNotSplitWhenLighterRegionsCanBalanceTheNode() {
        List<Region> rs = new ArrayList<>();
        rs.add(Clusters.region(0, "n0", 400, 0, 400, 0)); // 0.19 of the mean CPU: above λ/2
        for (int i = 1; i <= 30; i++) {
            rs.add(Clusters.region(i, "n0", 40, 0, 40, 0));
        }
        for (int i = 31; i <= 60; i++) {
            rs.add(Clusters.region(i, "n" + (1 + i % 2), 40, 0, 40, 0));
        }
        Plan p = Planner.builder().build().plan(Clusters.snapshot(3, rs)).plan();
        assertThat(p.predicted().imbalanceDegree()).isLessThanOrEqualTo(0.05);
        assertThat(p.count("split")).isZero();
    }

    @Test
    void aRegionAboveHalfLambdaThatNothingElseCanReplaceIsSplitByLoad() {
        List<Region> rs = new ArrayList<>();
        rs.add(Clusters.region(0, "n0", 2000, 0, 2000, 0));
        for (int i = 1; i <= 20; i++) {
            rs.add(Clusters.region(i, "n" + (1 + i % 3), 100, 0, 100, 0));
        }
        Plan p = Planner.builder().build().plan(Clusters.snapshot(4, rs)).plan();
        assertThat(p.count("split")).isPositive();
        assertThat(p.actions().get(0)).isInstanceOf(SplitAction.class);
        assertThat(((SplitAction) p.actions().get(0)).region()).isEqualTo("r0");
        assertThat(p.predicted().imbalanceDegree()).isLessThanOrEqualTo(0.05);
    }

    @Test
    void coldNeighboursAreMergedWhenAsked() {
        ClusterSnapshot s = Clusters.dualImbalanced(4, 40, 2);
        Plan p = Planner.builder().config(SchedulerConfig.DEFAULT.withMergeColdBelow(0.02)).build().plan(s).plan();
        assertThat(p.count("merge")).isPositive();
        assertThat(p.actions().get(p.actions().size() - 1).type()).isEqualTo("merge");
        Plan none = Planner.builder().build().plan(s).plan();
        assertThat(none.count("merge")).isZero();
    }
}
