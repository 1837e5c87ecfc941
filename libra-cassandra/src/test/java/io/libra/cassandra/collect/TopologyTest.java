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

    /** Three nodes in {@code dcs[i]} / {@code racks[i]}. */
    private static List<Window.NodeStat> placed(String[] dcs, String[] racks) {
        List<Window.NodeStat> out = new java.util.ArrayList<>();
        for (int i = 0; i < dcs.length; i++) {
            out.add(new Window.NodeStat("n" + (i + 1), "10.0.0." + (i + 1), true, null, 2, 0.5, 1e5, "proc", (long) i,
                    "NORMAL", 100 + i, dcs[i], racks[i]));
        }
        return out;
    }

    private static final String[] ONE_DC = {"dc1", "dc1", "dc1"};
    private static final String[] ONE_RACK = {"r1", "r1", "r1"};

    private static List<String> unmodelled(String info, String[] dcs, String[] racks) {
        return Topology.unmodelled(List.of(KeyspaceReplication.parse("ks", info)), placed(dcs, racks));
    }

    @Test
    void simpleStrategyAndOneRackNetworkTopologyArePlannedWithTheirDeclaredReplicas() {
        assertThat(unmodelled("SimpleStrategy {replication_factor=2}", new String[] {"dc1", "dc2", "dc2"},
                new String[] {"r1", "r2", "r3"})).isEmpty();
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=2}", ONE_DC, ONE_RACK)).isEmpty();
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "NetworkTopologyStrategy {dc1=2}"),
                placed(ONE_DC, ONE_RACK))).isEqualTo(2);
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "SimpleStrategy {replication_factor=5}"),
                placed(ONE_DC, ONE_RACK))).as("capped at the ring's size").isEqualTo(3);
    }

    @Test
    void racksAreRefusedUnlessEveryNodeIsAReplica() {
        String[] twoRacks = {"r1", "r2", "r1"};
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=3}", ONE_DC, twoRacks)).as("every node").isEmpty();
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=2}", ONE_DC, twoRacks)).singleElement().asString()
                .isEqualTo("keyspace ks: NetworkTopologyStrategy over 2 racks in dc1: replicas are not the next nodes on "
                        + "the ring; not modelled");
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "NetworkTopologyStrategy {dc1=2}"),
                placed(ONE_DC, twoRacks))).isEqualTo(-1);
    }

    @Test
    void severalDataCentresTransientFactorsAndOtherStrategiesAreRefusedNamingTheKeyspace() {
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=2}", new String[] {"dc1", "dc1", "dc2"}, ONE_RACK))
                .singleElement().asString().isEqualTo("keyspace ks: NetworkTopologyStrategy {dc1=2} over data centres "
                        + "[dc1, dc2]: replicas are not the next nodes on the ring; not modelled");
        assertThat(unmodelled("NetworkTopologyStrategy {dc9=2}", ONE_DC, ONE_RACK)).singleElement().asString()
                .startsWith("keyspace ks: NetworkTopologyStrategy {dc9=2} over data centres [dc1]");
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=3/1}", ONE_DC, ONE_RACK)).singleElement().asString()
                .isEqualTo("keyspace ks: NetworkTopologyStrategy {dc1=3/1} has transient or unreadable factors "
                        + "{dc1=3/1}; not modelled");
        assertThat(unmodelled("EverywhereStrategy {}", ONE_DC, ONE_RACK)).singleElement().asString()
                .isEqualTo("keyspace ks: EverywhereStrategy is not modelled");
    }

    @Test
    void replicationIsReadAsCassandraWritesIt() {
        KeyspaceReplication nts = KeyspaceReplication.parse("ks", "NetworkTopologyStrategy {dc2=2, dc1=3}");
        assertThat(nts.strategy()).isEqualTo("NetworkTopologyStrategy");
        assertThat(nts.options()).containsExactlyInAnyOrderEntriesOf(Map.of("dc1", "3", "dc2", "2"));
        assertThat(nts.describe()).isEqualTo("NetworkTopologyStrategy {dc1=3, dc2=2}");
        assertThat(KeyspaceReplication.parse("ks", "SimpleStrategy {replication_factor=2}").factor("replication_factor"))
                .isEqualTo(2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyspaceReplication.parse("ks", "garbage"))
                .hasMessage("keyspace ks: replication \"garbage\" is not \"<strategy> {option=value, ...}\"");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyspaceReplication.parse("ks", "S {x}"))
                .hasMessage("keyspace ks: replication option \"x\" is not option=value");
    }
}
