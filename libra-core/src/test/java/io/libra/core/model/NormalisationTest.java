package io.libra.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NormalisationTest {
    private static Node node(String id, Capacity c) {
        return new Node(id, 8, 1, 1e6, c);
    }

    private static ClusterSnapshot cluster(List<Node> nodes) {
        return new ClusterSnapshot("hbase", java.time.Instant.EPOCH, 60, nodes, List.of());
    }

    @Test
    void sizesAreCapacitiesOverTheirMeanPerDimension() {
        List<Node> nodes = List.of(node("a", new Capacity(4, 3e8)), node("b", new Capacity(12, 1e8)));

        assertThat(Normalisation.sizes(cluster(nodes), Dimension.CPU)).containsExactly(0.5, 1.5);
        assertThat(Normalisation.sizes(cluster(nodes), Dimension.DISK)).containsExactly(1.5, 0.5);
    }

    /** Capacities are used only when every node declares one, as for the targets. */
    @Test
    void aNodeWithoutCapacityMakesEveryNodeOfMeanSize() {
        List<Node> nodes = List.of(node("a", new Capacity(4, 3e8)), node("b", null));

        assertThat(Normalisation.sizes(cluster(nodes), Dimension.CPU)).containsExactly(1.0, 1.0);
    }
}
