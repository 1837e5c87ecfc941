package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.model.Dimension;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WithinNodeTest {
    /** Busy cores per small read: the cost the node totals follow. */
    private static final double COST = 1e-4;
    private static final int READS = 1;
    private static final int NODES = 12;
    private static final double TOTAL = 3.0;

    /**
     * Twelve nodes, each with work of its own (0.5-1.5 cores) that no counter explains, balanced
     * against it: every node's total is 3 cores in the first window, because nodes with more of
     * their own work were given fewer reads. In each later window {@code moved} nodes swap some
     * reads with a neighbour.
     */
    private static List<NodeSample> balancedAgainstOwnWork(int windows, int moved) {
        SplittableRandom rnd = new SplittableRandom(5);
        double[] own = new double[NODES];
        double[] reads = new double[NODES];
        for (int j = 0; j < NODES; j++) {
            own[j] = 0.5 + rnd.nextDouble();
            reads[j] = (TOTAL - own[j]) / COST;
        }
        List<NodeSample> out = new ArrayList<>();
        for (int t = 0; t < windows; t++) {
            for (int m = 0; m < moved && t > 0; m++) {
                int j = (3 * t + m) % NODES;
                double shift = reads[j] * (0.1 + 0.2 * rnd.nextDouble());
                reads[j] -= shift;
                reads[(j + 1) % NODES] += shift;
            }
            for (int j = 0; j < NODES; j++) {
                double[] x = new double[CostFeatures.count()];
                x[CostFeatures.BACKGROUND] = 1;
                x[READS] = reads[j];
                double cpu = (own[j] + COST * reads[j]) * (1 + 0.005 * (rnd.nextDouble() - 0.5));
                out.add(new NodeSample("n" + j, t, cpu, 0, x, x));
            }
        }
        return out;
    }

    private static CostFit fit(List<NodeSample> samples) {
        return CostFit.fit(Dimension.CPU, samples, CostFeatures.prior(Dimension.CPU, EstimationConfig.DEFAULT), true);
    }

    /**
     * Across nodes the totals hardly depend on the reads, and a pooled fit puts their cost in the
     * background; node by node, the moves between windows show it.
     */
    @Test
    void learnsTheCostFromEachNodesChangesWhereNodesWereBalancedAgainstTheirOwnWork() {
        List<NodeSample> samples = balancedAgainstOwnWork(4, 3);
        double pooled = Moments.of(Dimension.CPU, samples, CostFeatures.prior(Dimension.CPU, EstimationConfig.DEFAULT))
                .solve(1e-3, new boolean[CostFeatures.count()])[READS];
        assertThat(pooled).as("the pooled fit, at the weakest pull").isLessThan(0.7 * COST);

        CostFit f = fit(samples);

        assertThat(f.detail()).contains("node by node");
        assertThat(f.weights()[READS]).isCloseTo(COST, within(0.1 * COST));
        assertThat(f.fitError()).isLessThan(0.01);
    }

    /** With no moves between the windows there are no changes to learn from, and the pooled fit stands. */
    @Test
    void windowsWithoutMovesLeaveThePooledFit() {
        assertThat(fit(balancedAgainstOwnWork(4, 0)).detail()).doesNotContain("node by node");
    }

    /** Two windows leave one to learn from when the other is held out: not enough to judge. */
    @Test
    void needsThreeWindows() {
        assertThat(fit(balancedAgainstOwnWork(2, 3)).detail()).doesNotContain("node by node");
        assertThat(WithinNode.changeError(WithinNode.Nodes.of(Dimension.CPU, balancedAgainstOwnWork(1, 0)), t -> new double[CostFeatures.count()]))
                .isNaN();
    }
}
