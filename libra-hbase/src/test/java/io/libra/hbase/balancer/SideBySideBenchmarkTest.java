package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the side-by-side benchmark honest in CI on a small cluster, with the SLB's search bounded to 0.5 s. */
class SideBySideBenchmarkTest {
    @Test
    void bothBalancersRunOnTheSameInputAndAreScoredOnTheHiddenCostModel() throws Exception {
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
        List<SideBySideBenchmark.Row> rows = SideBySideBenchmark.run(
                SideBySideBenchmark.scenario("paper-mixgraph:8x128"), 1, 500);
        assertThat(rows).extracting(SideBySideBenchmark.Row::balancer).containsExactly("none (starting layout)",
                "Libra, whole plan (over successive runs)", "Libra, first balancer run", "SLB, defaults",
                "SLB, read/write cost 500, minCostNeedBalance 0");
        SideBySideBenchmark.Row start = rows.get(0);
        SideBySideBenchmark.Row libra = rows.get(1);
        assertThat(libra.moves()).isPositive();
        assertThat(libra.score().cpuMaxOverMean()).isLessThan(start.score().cpuMaxOverMean());
        assertThat(libra.score().diskMaxOverMean()).isLessThan(start.score().diskMaxOverMean());
        assertThat(rows.get(3).moves()).isZero(); // even region counts: the SLB's defaults see nothing to do
    }

    private static double worse(SideBySideBenchmark.Row r) {
        return Math.max(r.score().cpuMaxOverMean(), r.score().diskMaxOverMean());
    }

    @Test
    void inTheClosedLoopLibraBalancesBothDimensionsBetterThanTheTunedStochasticBalancer() throws Exception {
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
        List<SideBySideBenchmark.Row> rows = SideBySideBenchmark.closedLoop(
                SideBySideBenchmark.scenario("paper-mixgraph:8x128"), 1, 500, 8);
        assertThat(rows).extracting(SideBySideBenchmark.Row::balancer).containsExactly("Libra", "SLB, defaults",
                "SLB, read/write cost 500, minCostNeedBalance 0");
        SideBySideBenchmark.Row libra = rows.get(0);
        SideBySideBenchmark.Row tuned = rows.get(2);
        assertThat(libra.moves()).isPositive();
        assertThat(worse(libra)).isLessThan(worse(tuned));
        assertThat(rows.get(1).moves()).isZero();
    }
}
