package io.libra.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.collect.Window;
import io.libra.core.Planner;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
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

    private RingPlanning planning(int historyWindows) {
        return new RingPlanning(Planner.builder().learning(true).meterRegistry(registry).build(),
                new RingPlannerConfig(0.05, 2, 0, 4, 0.01), historyWindows);
    }

    /** The test ring's window with each node's measured CPU and disk replaced. */
    private static Window measured(Function<Window.NodeStat, double[]> cpuAndDisk) {
        Window w = RingModelBuilderTest.window();
        List<Window.NodeStat> nodes = new ArrayList<>();
        for (Window.NodeStat n : w.nodes()) {
            double[] m = cpuAndDisk.apply(n);
            nodes.add(new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), m[0], m[1], n.diskSource(),
                    n.token(), n.mode(), n.pid(), n.datacenter(), n.rack()));
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
        assertThat(next.plan().detail()).contains("conservative");
        for (Action a : next.plan().actions()) {
            assertThat(a.reason().note()).contains("conservative: benefit above the measured forecast error");
        }
        assertThat(registry.get("libra.prediction.error").gauge().value()).isGreaterThan(claimed);
    }

    @Test
    void aChangeInRingMembershipDropsHistoryAndTheForecastToCheck() {
        RingPlanning p = planning(3);
        Plan ran = p.plan(model(RingModelBuilderTest.window())).plan();
        p.plan(model(RingModelBuilderTest.window()));
        p.executed(ran);
        RingPlanning.Round after = p.plan(model(RingModelBuilderTest.renamed(RingModelBuilderTest.window(), "n3", "n4")));
        assertThat(after.dropped()).startsWith("ring membership changed [n1, n2, n3] -> [n1, n2, n4]");
        assertThat(after.windows()).isZero();
        assertThat(after.plan().estimation().windows()).isEqualTo(1);
        assertThat(after.plan().estimation().lastPredictionError()).as("no forecast checked").isNaN();
    }
}
