package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.Clusters;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricMappingTest {
    private static ClusterSnapshot twoRegionsOnOneNode(double cpu, double disk) {
        List<Region> rs = List.of(Clusters.region(0, "n0", 100, 0, 100 * 100, 0),
                Clusters.region(1, "n0", 0, 100, 0, 100 * 10_000));
        return new ClusterSnapshot("generic", Instant.EPOCH, 60,
                List.of(new Node("n0", 8, cpu, disk), new Node("n1", 8, 0, 0)), rs);
    }

    @Test
    void cpuIsSharedByReadsPlusCTimesWrites() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(twoRegionsOnOneNode(2.63, 1000));
        // α_i = A_j·(ROPS_i + c·WOPS_i)/(ROPS_j + c·WOPS_j) with c = 1.63: 100/263 and 163/263 of 2.63 cores
        assertThat(m.regions().get(0).cpu()).isCloseTo(1.0, within(1e-9));
        assertThat(m.regions().get(1).cpu()).isCloseTo(1.63, within(1e-9));
    }

    @Test
    void correctionFactorIsConfigurable() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT.withCorrectionFactor(1.0))
                .estimate(twoRegionsOnOneNode(2.0, 1000));
        assertThat(m.regions().get(0).cpu()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void smallReadsCostAtLeastABlockAndWritesPayPerByteAndPerOp() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(twoRegionsOnOneNode(1, 1_000_000));
        double read = Math.max(100 * 100, 100 * 4096.0);
        double write = 3.0 * (100 * 10_000 + 100 * DiskCostModel.DEFAULT.writeOpBytes());
        assertThat(m.regions().get(0).disk()).isCloseTo(1_000_000 * read / (read + write), within(1e-6));
        assertThat(m.regions().get(1).disk()).isCloseTo(1_000_000 * write / (read + write), within(1e-6));
    }

    @Test
    void regionLoadsAddUpToTheMeasuredNodeLoad() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(Clusters.dualImbalanced(4, 10, 3));
        ClusterSnapshot s = Clusters.dualImbalanced(4, 10, 3);
        for (int j = 0; j < 4; j++) {
            assertThat(m.load(j, Dimension.CPU)).isCloseTo(s.nodes().get(j).cpuUsage(), within(1e-9));
            assertThat(m.load(j, Dimension.DISK)).isCloseTo(s.nodes().get(j).diskBytesPerSec(), within(1e-3));
        }
    }

    @Test
    void loadNoCounterExplainsStaysOnTheNodeAsBase() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(new ClusterSnapshot("generic", Instant.EPOCH, 60,
                List.of(new Node("n0", 8, 3, 500), new Node("n1", 8, 1, 100)),
                List.of(Clusters.region(0, "n1", 10, 0, 10, 0))));
        assertThat(m.base(0, Dimension.CPU)).isEqualTo(3);
        assertThat(m.load(0, Dimension.CPU)).isEqualTo(3);
        assertThat(m.base(1, Dimension.CPU)).isZero();
    }

    @Test
    void deviationAndImbalanceDegreeFollowEquations3And4() {
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(new ClusterSnapshot("generic", Instant.EPOCH, 60,
                List.of(new Node("a", 8, 3, 100), new Node("b", 8, 1, 300)), List.of()));
        assertThat(m.normalized(0, Dimension.CPU)).isCloseTo(1.5, within(1e-12));
        assertThat(m.normalized(1, Dimension.DISK)).isCloseTo(1.5, within(1e-12));
        assertThat(m.deviation(0)).isCloseTo(0.5, within(1e-12));
        assertThat(m.balance().imbalanceDegree()).isCloseTo(0.5, within(1e-12));
        assertThat(m.balance().cpuMaxOverMean()).isCloseTo(1.5, within(1e-12));
    }

    @Test
    void capacitiesMakeTargetsProportional() {
        ClusterSnapshot s = new ClusterSnapshot("generic", Instant.EPOCH, 60, List.of(
                new Node("big", 16, 4, 400, new Capacity(16, 2000)),
                new Node("small", 8, 2, 200, new Capacity(8, 1000))), List.of());
        LoadModel m = new MetricMapping(EstimationConfig.DEFAULT).estimate(s);
        assertThat(m.isHeterogeneous()).isTrue();
        assertThat(m.target(0, Dimension.CPU)).isCloseTo(4, within(1e-12));
        assertThat(m.normalized(1, Dimension.CPU)).isCloseTo(1.0, within(1e-12));
        assertThat(m.balance().imbalanceDegree()).isCloseTo(0, within(1e-12));
    }
}
