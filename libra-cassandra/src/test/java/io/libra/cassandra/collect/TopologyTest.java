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

    private static List<String> misplaced(String info, String[] racks, Map<List<String>, List<String>> listed) {
        return Topology.misplaced(List.of(KeyspaceReplication.parse("ks", info)), placed(ONE_DC, racks), RING,
                Map.of("ks", listed));
    }

    /** NTS with racks can skip the next node: (100, -100] on a and c, b sharing a's rack. */
    private static final Map<List<String>, List<String>> BY_RACKS = ranges(List.of("10.0.0.1", "10.0.0.3"),
            List.of("10.0.0.2", "10.0.0.3"), List.of("10.0.0.3", "10.0.0.1"));

    @Test
    void theListedReplicasAreCheckedAgainstCassandrasPlacement() {
        Map<List<String>, List<String>> rf2 = ranges(List.of("10.0.0.1", "10.0.0.2"), List.of("10.0.0.2", "10.0.0.3"),
                List.of("10.0.0.3", "10.0.0.1"));
        assertThat(misplaced("SimpleStrategy {replication_factor=2}", ONE_RACK, rf2)).isEmpty();
        String[] racks = {"r1", "r1", "r2"};
        assertThat(misplaced("NetworkTopologyStrategy {dc1=2}", racks, BY_RACKS)).as("placed by rack").isEmpty();
        assertThat(misplaced("SimpleStrategy {replication_factor=2}", racks, BY_RACKS)).singleElement().asString()
                .isEqualTo("keyspace ks: range ending at -100 is on [n1, n3], not [n1, n2] as SimpleStrategy "
                        + "{replication_factor=2} places it (a schema change in flight?); nothing is planned");
    }

    @Test
    void anUnconfiguredRingMemberIsNamed() {
        assertThat(Topology.problems(RING, Set.of("10.0.0.1", "10.0.0.2")))
                .containsExactly("ring member 10.0.0.3 is not configured (add it to instances): its load would be unseen");
        assertThat(Topology.problems(RING, HOSTS)).isEmpty();
    }

    /** Three nodes in {@code dcs[i]} / {@code racks[i]}. */
    private static List<Window.NodeStat> placed(String[] dcs, String[] racks) {
        List<Window.NodeStat> out = new java.util.ArrayList<>();
        for (int i = 0; i < dcs.length; i++) {
            out.add(new Window.NodeStat("n" + (i + 1), "10.0.0." + (i + 1), true, null, 2, 0.5, 1e5, "proc", List.of((long) i),
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
    void racksAndDataCentresArePlannedWithTheReplicasTheyGive() {
        String[] twoRacks = {"r1", "r2", "r1"};
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=2}", ONE_DC, twoRacks)).isEmpty();
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "NetworkTopologyStrategy {dc1=2}"),
                placed(ONE_DC, twoRacks))).isEqualTo(2);
        String[] twoDcs = {"dc1", "dc1", "dc2"};
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=2, dc2=3}", twoDcs, ONE_RACK)).isEmpty();
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "NetworkTopologyStrategy {dc1=2, dc2=3}"),
                placed(twoDcs, ONE_RACK))).as("per data centre, capped at its nodes").isEqualTo(3);
    }

    @Test
    void transientFactorsAndOtherStrategiesAreRefusedNamingTheKeyspace() {
        assertThat(unmodelled("NetworkTopologyStrategy {dc1=3/1}", ONE_DC, ONE_RACK)).singleElement().asString()
                .isEqualTo("keyspace ks: NetworkTopologyStrategy {dc1=3/1} has transient or unreadable factors "
                        + "{dc1=3/1}; not modelled");
        assertThat(unmodelled("EverywhereStrategy {}", ONE_DC, ONE_RACK)).singleElement().asString()
                .isEqualTo("keyspace ks: EverywhereStrategy is not modelled");
        assertThat(Topology.declaredReplicas(KeyspaceReplication.parse("ks", "EverywhereStrategy {}"),
                placed(ONE_DC, ONE_RACK))).isEqualTo(-1);
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
