package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WorkloadTest {
    private final Workload w = Scenario.byName("ycsb-a").workload(3, 0).withTotalOps(10_000);

    @Test
    void keysAndPositionsRoundTrip() {
        for (double x : new double[] {0.001, 0.25, 0.5, 0.7331, 0.999}) {
            assertThat(KeySpace.position(KeySpace.key(x))).isCloseTo(x, within(1e-12));
        }
        assertThat(KeySpace.key(0)).isEmpty();
        assertThat(KeySpace.endPosition("")).isEqualTo(1.0);
        assertThat(KeySpace.key(0.25).compareTo(KeySpace.key(0.5))).isNegative();
    }

    @Test
    void splittingARangeConservesItsTraffic() {
        RegionTraffic whole = w.traffic("r", 0.1, 0.3);
        RegionTraffic left = w.traffic("l", 0.1, 0.17);
        RegionTraffic right = w.traffic("r", 0.17, 0.3);
        assertThat(left.requests() + right.requests()).isCloseTo(whole.requests(), within(1e-6));
        assertThat(left.writeBytes() + right.writeBytes()).isCloseTo(whole.writeBytes(), within(1e-3));
        assertThat(left.sizeBytes() + right.sizeBytes()).isCloseTo(whole.sizeBytes(), within(1.0));
    }

    @Test
    void theWholeKeySpaceCarriesAllRequestsAtTheMeanValueSize() {
        RegionTraffic all = w.traffic("all", 0, 1);
        assertThat(all.requests()).isCloseTo(10_000, within(1e-6));
        assertThat(all.meanValueBytes()).isCloseTo(1024, within(1e-6));
        assertThat(all.readOps()).isCloseTo(5_000, within(1e-6));
    }

    @Test
    void mixgraphHotnessFollowsThePapersParameters() {
        assertThat(Hotness.mixgraph(0)).isCloseTo(14.18 + 0.0164, within(1e-12));
        assertThat(Hotness.mixgraph(1)).isCloseTo(14.18 * Math.exp(-2.917) + 0.0164 * Math.exp(-0.08082), within(1e-12));
    }
}
