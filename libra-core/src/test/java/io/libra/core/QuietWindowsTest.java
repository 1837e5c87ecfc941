package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuietWindowsTest {
    private static final Map<String, List<String>> RING = Map.of("n1", List.of("4000000000000000"),
            "n2", List.of("c000000000000000"));

    /** A two-node ring window: the same region ids and nodes whatever the tokens, as the sidecar names them. */
    private static ClusterSnapshot window(Map<String, List<String>> ring, double n1Cpu, double n2Cpu) {
        List<Node> nodes = List.of(new Node("n1", 8, n1Cpu, 1e6), new Node("n2", 8, n2Cpu, 1e6));
        RegionCounters c = new RegionCounters(100, 50, 0, 0);
        List<Region> regions = List.of(
                new Region("ks.t/n1.0@n1", "ks.t", new KeyRange("", "8000000000000000"), "n1", 1e9, c, List.of(), "n1.0"),
                new Region("ks.t/n2.0@n2", "ks.t", new KeyRange("8000000000000000", ""), "n2", 1e9, c, List.of(), "n2.0"));
        return new ClusterSnapshot("cassandra", Instant.EPOCH, 60, nodes, regions, 1, ring);
    }

    @Test
    void windowsOfTheSameRingAreAveraged() {
        QuietWindows q = QuietWindows.of(window(RING, 1.0, 3.0), List.of(window(RING, 3.0, 1.0))).orElseThrow();
        assertThat(q.windows()).isEqualTo(2);
        assertThat(q.delta()).isZero();
    }

    @Test
    void aTokenMoveEndsTheQuietWindowsThoughRegionIdsAndNodesStayTheSame() {
        Map<String, List<String>> moved = Map.of("n1", List.of("5000000000000000"), "n2", List.of("c000000000000000"));
        assertThat(QuietWindows.of(window(moved, 1.0, 3.0), List.of(window(RING, 3.0, 1.0)))).isEmpty();
    }
}
