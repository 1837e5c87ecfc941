package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeSamplesTest {
    private static final EstimationConfig CONFIG = EstimationConfig.DEFAULT;
    private static final CostFeatures FEATURES = new CostFeatures(CONFIG.disk().readFloorBytes());

    /**
     * In the second window n2 holds r0 and r2 from n1 and r1 from n0: its arrivals are laid out by the
     * node they came from, in region order (n1 first, whatever order a hash map would give), each the
     * sum of its regions' features; a region that stayed (r3 on n2) is no arrival, and nothing arrives
     * in the first window.
     */
    @Test
    void whatCameToANodeIsSummedPerNodeItCameFromInRegionOrder() {
        ClusterSnapshot first = window(0, "n1", "n0", "n1", "n2");
        ClusterSnapshot second = window(1, "n2", "n2", "n2", "n2");

        List<NodeSample> samples = NodeSamples.of(List.of(first, second), FEATURES, CONFIG).in(BackgroundShape.Both.CAPACITY);

        NodeSample n2 = samples.stream().filter(s -> s.window() == 1 && s.node().equals("n2")).findFirst().orElseThrow();
        assertThat(n2.arrived().from()).containsExactly("n1", "n0");
        double[] fromN1 = FEATURES.of(counters(0));
        double[] r2 = FEATURES.of(counters(2));
        for (int k = 0; k < fromN1.length; k++) {
            fromN1[k] += r2[k];
        }
        double[] w = new double[CostFeatures.count()];
        w[1] = 1;
        w[7] = 1000;
        assertThat(n2.arrived().cost(0, w)).isEqualTo(CostFit.dot(w, fromN1));
        assertThat(n2.arrived().cost(1, w)).isEqualTo(CostFit.dot(w, FEATURES.of(counters(1))));
        assertThat(samples.stream().filter(s -> s.window() == 0)).allSatisfy(s -> assertThat(s.arrived().size()).isZero());
    }

    /** Regions r0..r3 on the given nodes; three nodes, each measuring the same. */
    private static ClusterSnapshot window(int t, String... on) {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < on.length; i++) {
            regions.add(new Region("r" + i, "t", new KeyRange(String.format("%02x", i), String.format("%02x", i + 1)),
                    on[i], 1e6, counters(i)));
        }
        List<Node> nodes = List.of(new Node("n0", 8, 1, 1e6), new Node("n1", 8, 1, 1e6), new Node("n2", 8, 1, 1e6));
        return new ClusterSnapshot("hbase", Instant.EPOCH.plusSeconds(60L * t), 60, nodes, regions);
    }

    /** Small reads and some writes, different for each region. */
    private static RegionCounters counters(int i) {
        return new RegionCounters(100 * (i + 1), 10 * (i + 1), 100 * (i + 1) * 1000, 10 * (i + 1) * 500);
    }
}
