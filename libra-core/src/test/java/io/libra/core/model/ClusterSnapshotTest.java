package io.libra.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.libra.core.Clusters;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterSnapshotTest {

    private final ClusterSnapshot s = Clusters.snapshot(3, List.of(
            Clusters.region(0, "n0", 10, 0, 100, 0), Clusters.region(1, "n2", 5, 5, 50, 50)));

    @Test
    void placementMapsEachRegionToItsNodeAndNoOther() {
        assertEquals(Map.of("r0", "n0", "r1", "n2"), s.placement());
    }

    @Test
    void nodeIdsHoldNodesWithoutRegionsToo() {
        assertEquals(Set.of("n0", "n1", "n2"), s.nodeIds());
        assertThrows(UnsupportedOperationException.class, () -> s.nodeIds().add("n3"));
    }
}
