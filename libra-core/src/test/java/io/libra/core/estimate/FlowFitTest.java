package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.Clusters;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The flow error: how a node's forecast error grows with the load moved through it. */
class FlowFitTest {
    private static final int NODES = 8;
    private static final int PER_NODE = 10;
    private static final double CPU = 0.1;
    private static final double DISK = 1e6;

    /** Each node carries ten regions of equal load; node j has 2j of them traded with its neighbour. */
    private static LoadModel replayed() {
        List<Node> nodes = new ArrayList<>();
        List<RegionLoad> regions = new ArrayList<>();
        for (int j = 0; j < NODES; j++) {
            nodes.add(new Node("n" + j, 64, PER_NODE * CPU, PER_NODE * DISK));
            for (int k = 0; k < PER_NODE; k++) {
                int i = j * PER_NODE + k;
                Region r = Clusters.region(i, "n" + j, 10, 1, 1000, 100);
                regions.add(new RegionLoad(r, CPU, DISK));
            }
        }
        return new LoadModel(nodes, regions, new double[NODES], new double[NODES]);
    }

    /** Node pairs (0,1), (2,3), … trade k regions each way, k = 0, 1, 2, 3 by pair: gross flows 0, 0.2, 0.4, 0.6. */
    private static Plan trades(LoadModel m) {
        List<Action> moves = new ArrayList<>();
        for (int pair = 0; pair < NODES / 2; pair++) {
            for (int k = 0; k < pair; k++) {
                int a = 2 * pair;
                int b = a + 1;
                moves.add(new MoveAction("r" + (a * PER_NODE + k), "n" + a, "n" + b, 1e6, null));
                moves.add(new MoveAction("r" + (b * PER_NODE + k), "n" + b, "n" + a, 1e6, null));
            }
        }
        Balance b = m.balance();
        return new Plan("libra", moves, b, b, PlanStatus.PLANNED, "");
    }

    /** The trades carried out on the model, and their gross flow. */
    private record Traded(Plan plan, LoadModel after, GrossFlow flow) {
        static Traded of(LoadModel m) {
            Plan p = trades(m);
            LoadModel after = new io.libra.core.apply.PlanApplier(EstimationConfig.DEFAULT).apply(m, p);
            return new Traded(p, after, GrossFlow.of(after, after, p.actions()));
        }

        /** The fit on nodes that measure the forecast off by floor + rate·g. */
        FlowFit fit(double floor, double rate) {
            return FlowFit.learn(plan, after, measured(after, flow, floor, rate)).orElseThrow();
        }
    }

    /** What the nodes measure: the forecast off by floor + rate·g, up on even nodes and down on odd ones. */
    private static ClusterSnapshot measured(LoadModel after, GrossFlow g, double floor, double rate) {
        List<Node> nodes = new ArrayList<>();
        for (int j = 0; j < NODES; j++) {
            double sign = j % 2 == 0 ? 1 : -1;
            double cpuOff = sign * (floor + rate * g.through(j, io.libra.core.model.Dimension.CPU)) * after.target(j,
                    io.libra.core.model.Dimension.CPU);
            double diskOff = sign * (floor + rate * g.through(j, io.libra.core.model.Dimension.DISK)) * after.target(j,
                    io.libra.core.model.Dimension.DISK);
            nodes.add(new Node("n" + j, 64, after.load(j, io.libra.core.model.Dimension.CPU) + cpuOff,
                    after.load(j, io.libra.core.model.Dimension.DISK) + diskOff));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, nodes, after.regions().stream().map(RegionLoad::region).toList());
    }

    @Test
    void recoversTheRateAndTheFloorFromNodesThatTradedDifferentAmounts() {
        Traded t = Traded.of(replayed());
        assertThat(t.flow().through(7, io.libra.core.model.Dimension.CPU)).isCloseTo(0.6, within(1e-9));
        assertThat(t.flow().through(1, io.libra.core.model.Dimension.DISK)).isZero();

        FlowFit fit = t.fit(0.01, 0.03);

        assertThat(fit.rate()).isCloseTo(0.03 * FlowFit.TAIL, within(1e-9));
        assertThat(fit.floor()).isCloseTo(0.01, within(1e-9));
        assertThat(fit.weight()).isPositive();
        assertThat(fit.describe()).contains("per unit of load moved through a node");
    }

    /** A replay that errs far more per unit of flow is of a model still learning: it says no more than the prior. */
    @Test
    void noCheckSaysMoreThanThePrior() {
        assertThat(Traded.of(replayed()).fit(0.01, 0.4).rate()).isEqualTo(FlowFit.PRIOR.rate());
    }

    @Test
    void anErrorThatDoesNotGrowWithTheFlowGivesNoRate() {
        FlowFit fit = Traded.of(replayed()).fit(0.02, 0);

        assertThat(fit.rate()).isZero();
        assertThat(fit.floor()).isCloseTo(0.02, within(1e-9));
    }

    @Test
    void aPlanThatMovedNothingOrTouchedTooFewNodesTeachesNothing() {
        LoadModel m = replayed();
        Balance b = m.balance();
        Plan idle = new Plan("libra", List.of(), b, b, PlanStatus.BALANCED, "");
        Plan one = new Plan("libra", List.of(new MoveAction("r0", "n0", "n1", 1e6, null)), b, b, PlanStatus.PLANNED, "");

        assertThat(FlowFit.learn(idle, m, measured(m, GrossFlow.none(NODES), 0.01, 0))).isEmpty();
        assertThat(FlowFit.learn(null, m, measured(m, GrossFlow.none(NODES), 0.01, 0))).isEmpty();
        assertThat(FlowFit.learn(one, m, measured(m, GrossFlow.none(NODES), 0.01, 0))).isEqualTo(Optional.empty());
    }

    @Test
    void eachChecksFitIsPooledWithTheEarlierOnesByTheSpreadOfTheFlowsTheySaw() {
        FlowError earlier = new FlowError(0.10, 0.4);
        FlowFit now = new FlowFit(0.02, 0.01, 0.2, 8);

        FlowError pooled = now.pooled(earlier);

        // 0.2 of weight at 0.02 against 0.5 × 0.4 at 0.10
        assertThat(pooled.rate()).isCloseTo(0.06, within(1e-12));
        assertThat(pooled.weight()).isCloseTo(0.4, within(1e-12));
        assertThat(now.pooled(null)).isEqualTo(new FlowError(0.02, 0.2));
    }
}
