package io.libra.cassandra.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopologyTest {
    /** Tokens -100, 0, 100 on a, b, c. */
    private static final Map<String, String> RING = Map.of("-100", "/10.0.0.1", "0", "/10.0.0.2", "100", "/10.0.0.3");
    private static final Set<String> HOSTS = Set.of("10.0.0.1", "10.0.0.2", "10.0.0.3");

    private static Map<List<String>, List<String>> ranges(List<String> r1, List<String> r2, List<String> r3) {
        Map<List<String>, List<String>> m = new LinkedHashMap<>();
        m.put(List.of("100", "-100"), r1);
        m.put(List.of("-100", "0"), r2);
        m.put(List.of("0", "100"), r3);
        return m;
    }

    @Test
    void ringOrderReplicasFitTheModel() {
        Map<List<String>, List<String>> rf2 = ranges(List.of("10.0.0.1", "10.0.0.2"), List.of("10.0.0.2", "10.0.0.3"),
                List.of("10.0.0.3", "10.0.0.1"));
        assertThat(Topology.problems(RING, Map.of("ks", rf2), HOSTS)).isEmpty();
    }

    @Test
    void rackAwarePlacementIsRefusedWithOneLine() {
        // NTS with racks can skip the next node: (100, -100] on a and c instead of a and b
        Map<List<String>, List<String>> racks = ranges(List.of("10.0.0.1", "10.0.0.3"), List.of("10.0.0.2", "10.0.0.3"),
                List.of("10.0.0.3", "10.0.0.1"));
        assertThat(Topology.problems(RING, Map.of("ks", racks), HOSTS)).singleElement().asString()
                .startsWith("keyspace ks: range ending at -100 is on [10.0.0.1, 10.0.0.3], not [10.0.0.1, 10.0.0.2]")
                .contains("NetworkTopologyStrategy").doesNotContain("\n");
    }

    @Test
    void anUnconfiguredRingMemberIsNamed() {
        assertThat(Topology.problems(RING, Map.of(), Set.of("10.0.0.1", "10.0.0.2")))
                .containsExactly("ring member 10.0.0.3 is not configured (add it to instances): its load would be unseen");
    }
}
