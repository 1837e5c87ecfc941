package io.libra.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingPlannerConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The sidecar's rounds through core's planner: history, the forecast of the plan carried out, conservative search. */
class RingPlanningTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);

    /** The operator's planner settings: λ 0.05, 2 moves, 4 slices, min_improvement 0.01, no fluctuation guard. */
    static SidecarConfig.Planner settings(int historyWindows) {
        SidecarConfig.Planner c = new SidecarConfig.Planner();
        c.lambda = 0.05;
        c.maxMoves = 2;
        c.slicesPerSubrange = 4;
        c.minImprovement = 0.01;
        c.fluctuationThreshold = 0;
        c.historyWindows = historyWindows;
        return c;
    }

    private RingPlanning planning(int historyWindows) {
        return new RingPlanning(settings(historyWindows), registry);
    }

    /** The test ring's window with each node's measured CPU and disk replaced. */
    private static Window measured(Function<Window.NodeStat, double[]> cpuAndDisk) {
        Window w = RingModelBuilderTest.window();
        List<Window.NodeStat> nodes = new ArrayList<>();
        for (Window.NodeStat n : w.nodes()) {
            double[] m = cpuAndDisk.apply(n);
            nodes.add(new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), m[0], m[1], n.diskSource(),
                    n.tokens(), n.mode(), n.pid(), n.datacenter(), n.rack()));
        }
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    private RingModel model(Window w) {
        return builder.build(w);
    }

    @Test
    void aRoundPlansTokenMovesWithAForecastPerNodeAndKeepsItsHistoryBounded() {
        RingPlanning p = planning(2);
        RingPlanning.Round first = p.plan(model(RingModelBuilderTest.window()));
        Plan plan = first.plan();
        assertThat(plan.actions()).isNotEmpty().allMatch(a -> a instanceof MoveTokenAction);
        assertThat(plan.forecast()).extracting(NodeForecast::id).containsExactly("n1", "n2", "n3");
        assertThat(plan.estimation().windows()).isEqualTo(1);
        assertThat(first.windows()).isZero();
        assertThat(first.conservative()).isFalse();
        for (int i = 0; i < 3; i++) {
            p.plan(model(RingModelBuilderTest.window()));
        }
        assertThat(p.windows()).as("at most history_windows earlier windows").isEqualTo(2);
        RingPlanning.Round later = p.plan(model(RingModelBuilderTest.window()));
        assertThat(later.windows()).isEqualTo(2);
        assertThat(later.plan().estimation().windows()).isEqualTo(3);
        assertThat(planning(0).plan(model(RingModelBuilderTest.window())).plan().estimation().windows()).isEqualTo(1);
    }

    /** Every node at 2 cores and 100 MB/s, but {@code n1} at {@code cpu} cores (Δ 0 at 2, 0.095 at 2.3). */
    private static Window even(double cpu) {
        return measured(n -> new double[] {n.id().equals("n1") ? cpu : 2, 100e6});
    }

    /** λ 0.08: the even window (Δ 0) is balanced, one node 15% busier (Δ 0.095) is not. */
    private RingPlanning planningAtLambda008() {
        SidecarConfig.Planner c = settings(3);
        c.lambda = 0.08;
        return new RingPlanning(c, registry);
    }

    /**
     * After a balanced round, Δ up to 2λ moves nothing. A job that ran a plan forecasting Δ within λ
     * sets the same band: what the next window measures above λ is that forecast's error.
     */
    @Test
    void afterABalancedRoundOrAJobThatReachedLambdaNoiseUpToTwiceLambdaMovesNothing() {
        RingPlanning fresh = planningAtLambda008();
        Plan unheld = fresh.plan(model(even(2.3))).plan();
        assertThat(unheld.before().imbalanceDegree()).isBetween(0.08, 0.16);
        assertThat(unheld.actions()).as("without a balanced round before, Δ above λ is planned").isNotEmpty();

        RingPlanning p = planningAtLambda008();
        assertThat(p.plan(model(even(2))).plan().status()).isEqualTo(PlanStatus.BALANCED);
        Plan held = p.plan(model(even(2.3))).plan();
        assertThat(held.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(held.actions()).isEmpty();
        assertThat(held.detail()).contains("within the hysteresis");
        p.executed(unheld);
        assertThat(unheld.predicted().imbalanceDegree()).isLessThanOrEqualTo(0.08);
        Plan afterJob = p.plan(model(even(2.3))).plan();
        assertThat(afterJob.actions()).isEmpty();
        assertThat(afterJob.detail()).contains("the last plan forecast Δ = ").contains("within the hysteresis");
    }

    @Test
    void aForecastThatHeldIsCheckedAndKeepsTheSearchAsConfigured() {
        RingPlanning p = planning(3);
        Plan ran = p.plan(model(RingModelBuilderTest.window())).plan();
        p.executed(ran);
        Map<String, NodeForecast> f = new java.util.HashMap<>();
        ran.forecast().forEach(x -> f.put(x.id(), x));
        RingPlanning.Round next = p.plan(model(measured(n -> new double[] {f.get(n.id()).cpu(),
            f.get(n.id()).diskBytesPerSec()})));
        assertThat(next.plan().estimation().lastPredictionError()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(next.conservative()).isFalse();
        assertThat(next.plan().detail()).contains("last plan's forecast was off by 0.0%");
        assertThat(registry.get("libra.prediction.error").gauge().value()).isZero();
    }

    @Test
    void aForecastThatMissedByMoreThanItClaimedMakesTheSearchConservative() {
        RingPlanning p = planning(3);
        Plan ran = p.plan(model(RingModelBuilderTest.window())).plan();
        double claimed = ran.before().imbalanceDegree() - ran.predicted().imbalanceDegree();
        p.executed(ran);
        // the nodes measured three times what was forecast
        Map<String, NodeForecast> f = new java.util.HashMap<>();
        ran.forecast().forEach(x -> f.put(x.id(), x));
        RingPlanning.Round next = p.plan(model(measured(n -> new double[] {Math.min(n.cpuCores(), 3 * f.get(n.id()).cpu()),
            3 * f.get(n.id()).diskBytesPerSec()})));
        assertThat(next.plan().estimation().lastPredictionError()).isGreaterThan(claimed);
        assertThat(next.conservative()).isTrue();
        // the same requests as the window before: the miss is the model's, not the workload's
        assertThat(next.check()).hasValueSatisfying(c -> {
            assertThat(c.shift().share()).isLessThan(0.01);
            assertThat(c.explainedByWorkload()).isFalse();
        });
        assertThat(next.plan().detail()).contains("conservative");
        for (Action a : next.plan().actions()) {
            assertThat(a.reason().note()).contains("conservative: benefit above the measured forecast error");
        }
        assertThat(registry.get("libra.prediction.error").gauge().value()).isGreaterThan(claimed);
    }

    /** {@code w} with the ring as {@code plan} leaves it and each node measuring {@code cpuAndDisk}. */
    private static Window movedBy(Plan plan, Window w, Function<Window.NodeStat, double[]> cpuAndDisk) {
        Map<String, Long> token = new java.util.HashMap<>();
        w.nodes().forEach(n -> token.put(n.id(), n.tokens().get(0)));
        for (Action a : plan.actions()) {
            MoveTokenAction m = (MoveTokenAction) a;
            token.put(m.node(), io.libra.core.ring.Tokens.fromKey(m.toToken()));
        }
        List<Window.NodeStat> nodes = new ArrayList<>();
        for (Window.NodeStat n : w.nodes()) {
            double[] c = cpuAndDisk.apply(n);
            nodes.add(new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), c[0], c[1], n.diskSource(),
                    List.of(token.get(n.id())), n.mode(), n.pid(), n.datacenter(), n.rack()));
        }
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    /**
     * Token moves measured to leave Δ worse (the same requests, so not the workload's doing) are
     * taken back, last first, each to the token it came from, when nothing else is worth moving;
     * once taken back, the revert is not itself taken back.
     */
    @Test
    void tokenMovesThatLeftDeltaWorseAreTakenBack() {
        RingPlanning p = planning(3);
        Window first = RingModelBuilderTest.window();
        Plan ran = p.plan(model(first)).plan();
        assertThat(ran.actions()).isNotEmpty();
        p.ringMoved();
        p.executed(ran);
        // after the moves, every node measures three times its load before (the same requests: a cost the model
        // does not know), n3, the busiest before, 3.3 times: Δ up from the first window's, and a miss so large
        // that no new move's benefit clears it
        String hurt = "n3";
        Window worse = movedBy(ran, first, n -> {
            double f = n.id().equals(hurt) ? 3.3 : 3;
            return new double[] {f * n.cpuUsage(), f * n.diskBytesPerSec()};
        });
        RingPlanning.Round back = p.plan(model(worse));
        assertThat(back.check()).hasValueSatisfying(c -> {
            assertThat(c.worsened()).isTrue();
            assertThat(c.explainedByWorkload()).isFalse();
        });
        Plan revert = back.plan();
        assertThat(revert.isRevert()).as(revert.detail()).isTrue();
        List<String> undone = new ArrayList<>();
        for (int i = ran.actions().size() - 1; i >= 0; i--) {
            MoveTokenAction m = (MoveTokenAction) ran.actions().get(i);
            undone.add(m.node() + " " + m.toToken() + " -> " + m.fromToken());
        }
        assertThat(revert.actions().stream().map(a -> (MoveTokenAction) a)
                .map(m -> m.node() + " " + m.fromToken() + " -> " + m.toToken()).toList()).isEqualTo(undone);
        assertThat(revert.actions()).allSatisfy(a -> {
            assertThat(a.reason().passed()).containsExactly(io.libra.core.plan.Constraint.REVERT);
            assertThat(a.reason().note()).startsWith("the last plan's moves left the measured Δ worse").contains(" back");
        });
        // the revert carries the failed forecast on, so the next window checks it again (and stays conservative)
        assertThat(revert.forecast()).isEqualTo(ran.forecast());
        // carried out and measured worse again: a revert is not taken back
        p.ringMoved();
        p.executed(revert);
        Window again = movedBy(revert, worse, n -> n.id().equals(hurt)
                ? new double[] {Math.min(n.cpuCores(), 3 * n.cpuUsage()), 3 * n.diskBytesPerSec()}
                : new double[] {n.cpuUsage(), n.diskBytesPerSec()});
        assertThat(p.plan(model(again)).plan().isRevert()).isFalse();
    }

    @Test
    void aChangeInRingMembershipDropsTheForecastToCheckAndKeepsTheWindows() {
        RingPlanning p = planning(3);
        Plan ran = p.plan(model(RingModelBuilderTest.window())).plan();
        p.plan(model(RingModelBuilderTest.window()));
        p.executed(ran);
        RingPlanning.Round after = p.plan(model(RingModelBuilderTest.renamed(RingModelBuilderTest.window(), "n3", "n4")));
        assertThat(after.dropped()).isEqualTo("ring membership changed [n1, n2, n3] -> [n1, n2, n4]: the forecast to"
                + " check dropped, the 2 earlier windows kept for the cost model");
        assertThat(after.windows()).isEqualTo(2);
        assertThat(after.plan().estimation().windows()).as("the windows before the change estimate this one").isEqualTo(3);
        assertThat(after.plan().estimation().lastPredictionError()).as("no forecast checked").isNaN();
        assertThat(after.plan().forecast()).extracting(NodeForecast::id).containsExactly("n1", "n2", "n4");
    }

    @Test
    void aNodeThatJustJoinedIsPricedByWhatTheWindowsBeforeItTaught() {
        RingPlanning p = planning(3);
        for (int i = 0; i < 3; i++) {
            p.plan(model(RingModelBuilderTest.window()));
        }
        RingPlanning.Round joined = p.plan(model(RingModelBuilderTest.joined(RingModelBuilderTest.window(), "n4")));
        assertThat(joined.dropped()).startsWith("ring membership changed [n1, n2, n3] -> [n1, n2, n3, n4]");
        assertThat(joined.windows()).isEqualTo(3);
        assertThat(joined.plan().estimation().windows()).isEqualTo(4);
        assertThat(joined.plan().forecast()).extracting(NodeForecast::id).contains("n4");
        assertThat(joined.plan().estimation().model()).as("three windows before the join teach the weights")
                .isEqualTo(io.libra.core.plan.Estimation.LEARNT);
        assertThat(p.plan(model(RingModelBuilderTest.joined(RingModelBuilderTest.window(), "n4"))).dropped())
                .as("the same members again").isNull();
    }

    @Test
    void theRoundAfterAJoinWaitsForTheLoadToSettleWhenGuarded() {
        SidecarConfig.Planner c = settings(3);
        c.fluctuationThreshold = 0.2;
        RingPlanning p = new RingPlanning(c, registry);
        p.plan(model(RingModelBuilderTest.window()));
        RingPlanning.Round joined = p.plan(model(RingModelBuilderTest.joined(RingModelBuilderTest.window(), "n4")));
        assertThat(joined.plan().status()).isEqualTo(PlanStatus.SUSPENDED);
        assertThat(joined.plan().detail()).contains("node n4 is new since the previous window");
        RingPlanning.Round settled = p.plan(model(RingModelBuilderTest.joined(RingModelBuilderTest.window(), "n4")));
        assertThat(settled.plan().status()).isNotEqualTo(PlanStatus.SUSPENDED);
        assertThat(settled.plan().estimation().windows()).as("the window before the join, the join's, this one").isEqualTo(3);
    }

    @Test
    void aRingThatSharesFewerThanHalfItsNodesWithTheWindowsDropsThem() {
        RingPlanning p = planning(3);
        p.plan(model(RingModelBuilderTest.window()));
        p.plan(model(RingModelBuilderTest.window()));
        Window other = RingModelBuilderTest.renamed(RingModelBuilderTest.renamed(RingModelBuilderTest.window(), "n2", "m2"),
                "n3", "m3");
        RingPlanning.Round r = p.plan(model(other));
        assertThat(r.dropped()).isEqualTo("history dropped: nodes: shares 1 of the snapshot's 3 node ids: a different"
                + " cluster?");
        assertThat(r.plan().estimation().windows()).isEqualTo(1);
        assertThat(p.windows()).as("only this window is kept").isEqualTo(1);
    }

    /**
     * One path: the round is core's Planner.plan with core's RingStrategy, so its moves are the
     * ring search's on the window's model with the operator's λ and min_improvement, the estimate
     * uses the configured correction factor, and core's planner meters count the round.
     */
    @Test
    void aRoundIsCoresPlannerWithTheRingStrategyAndTheOperatorsSettings() {
        SidecarConfig.Planner c = settings(3);
        c.correctionFactor = 2.0;
        RingPlanning p = new RingPlanning(c, registry);
        assertThat(p.planner().config().lambda()).isEqualTo(0.05);
        assertThat(p.planner().config().benefitThreshold()).isEqualTo(0.01);
        assertThat(p.planner().estimation().correctionFactor()).isEqualTo(2.0);
        RingModel model = new RingModelBuilder(8, c.estimation()).build(RingModelBuilderTest.window());
        Plan plan = p.plan(model).plan();
        RingPlan direct = new RingPlanner(new RingPlannerConfig(0.05, 2, 0, 4, 0.01)).plan(model.ring());
        assertThat(direct.moves()).isNotEmpty();
        assertThat(plan.strategy()).isEqualTo("libra-ring/" + direct.method());
        assertThat(plan.actions().stream().map(a -> (MoveTokenAction) a)
                .map(m -> m.node() + " " + m.fromToken() + " -> " + m.toToken()).toList())
                .isEqualTo(direct.moves().stream().map(m -> m.node() + " " + m.fromKey() + " -> " + m.toKey()).toList());
        assertThat(registry.get("libra.actions.planned").tag("strategy", "libra-ring").counter().count())
                .isEqualTo(plan.actions().size());
        assertThat(registry.get("libra.plan.time").tag("strategy", "libra-ring").timer().count()).isEqualTo(1);
        assertThat(registry.get("libra.imbalance.degree").gauge().value())
                .isCloseTo(model.load().balance().imbalanceDegree(), org.assertj.core.data.Offset.offset(1e-9));
        // the operator's λ above this window's Δ: nothing to do
        c.lambda = plan.before().imbalanceDegree() + 0.01;
        Plan calm = new RingPlanning(c, null).plan(model).plan();
        assertThat(calm.actions()).isEmpty();
        assertThat(calm.status()).isEqualTo(PlanStatus.BALANCED);
    }

    /**
     * Core's fluctuation guard (planner.fluctuation_threshold) compares the window with the last
     * one kept; the first window after a job moved tokens is not held back for that move.
     */
    @Test
    void aWindowInFluxIsSuspendedByCoresGuardButNotTheOneAfterAMove() {
        SidecarConfig.Planner c = settings(3);
        c.fluctuationThreshold = 0.2;
        RingPlanning p = new RingPlanning(c, registry);
        assertThat(p.plan(model(RingModelBuilderTest.window())).plan().actions()).isNotEmpty();
        Window doubled = measured(n -> new double[] {n.id().equals("n1") ? 2 * n.cpuUsage() : n.cpuUsage(),
            n.diskBytesPerSec()});
        Plan inFlux = p.plan(model(doubled)).plan();
        assertThat(inFlux.status()).isEqualTo(PlanStatus.SUSPENDED);
        assertThat(inFlux.actions()).isEmpty();
        assertThat(inFlux.detail()).startsWith("n1 cpu load changed by").contains("> 20%");
        assertThat(p.plan(model(doubled)).plan().status()).as("steady again").isEqualTo(PlanStatus.PLANNED);
        p.ringMoved();
        Plan afterMove = p.plan(model(RingModelBuilderTest.window())).plan();
        assertThat(afterMove.status()).as("the move's own change is not fluctuation").isEqualTo(PlanStatus.PLANNED);
        assertThat(p.plan(model(doubled)).plan().status()).as("guarded again").isEqualTo(PlanStatus.SUSPENDED);
        c.fluctuationThreshold = 0;
        RingPlanning off = new RingPlanning(c, null);
        off.plan(model(RingModelBuilderTest.window()));
        assertThat(off.plan(model(doubled)).plan().status()).as("threshold 0: no guard").isEqualTo(PlanStatus.PLANNED);
    }

    /** A ring of NetworkTopologyStrategy over racks plans through core's RingStrategy with the window's topology. */
    @Test
    void aRackedRingIsPlannedWithItsTopology() {
        RingModel model = model(RingModelBuilderTest.racked());
        Plan plan = planning(3).plan(model).plan();
        RingPlan direct = new RingPlanner(new RingPlannerConfig(0.05, 2, 0, 4, 0.01)).plan(model.ring());
        assertThat(model.ring().placed()).isTrue();
        assertThat(direct.moves()).isNotEmpty();
        assertThat(plan.actions().stream().map(a -> (MoveTokenAction) a)
                .map(m -> m.node() + " " + m.fromToken() + " -> " + m.toToken()).toList())
                .isEqualTo(direct.moves().stream().map(m -> m.node() + " " + m.fromKey() + " -> " + m.toKey()).toList());
    }
}
