package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SnapshotRingTest {
    private static final long T1 = Long.MIN_VALUE / 2;
    private static final long T2 = 0;
    private static final long T3 = Long.MAX_VALUE / 2;
    private static final List<Node> NODES = List.of(new Node("n1", 4, 1, 100), new Node("n2", 4, 1, 100),
            new Node("n3", 4, 1, 100));
    static final Map<String, List<String>> RING = Map.of("n1", List.of(Tokens.toKey(T1)),
            "n2", List.of(Tokens.toKey(T2)), "n3", List.of(Tokens.toKey(T3)));

    /** ks.t at RF 2 (owner and next node) and ks.u at RF 1, one sub-range per arc; n1's arc wraps and is two regions. */
    private static List<RegionLoad> loads() {
        List<RegionLoad> out = new ArrayList<>();
        // n1's arc (T3, T1] wraps: (T3, MAX] and (MAX, T1]
        for (String node : List.of("n1", "n2")) {
            out.add(load("ks.t", "a1", key(T3), "", node, 1.0));
            out.add(load("ks.t", "a1", "", key(T1), node, 1.0));
        }
        out.add(load("ks.t", "a2", key(T1), key(T2), "n2", 2.0));
        out.add(load("ks.t", "a2", key(T1), key(T2), "n3", 4.0));
        out.add(load("ks.t", "a3", key(T2), key(T3), "n3", 1.0));
        out.add(load("ks.t", "a3", key(T2), key(T3), "n1", 1.0));
        out.add(load("ks.u", "a2", key(T1), key(T2), "n2", 5.0));
        return out;
    }

    private static String key(long token) {
        return Tokens.toKey(token + 1);
    }

    private static RegionLoad load(String table, String range, String start, String end, String node, double cpu) {
        String id = table + "/" + range + "@" + node + (start.isEmpty() ? ".b" : end.isEmpty() ? ".a" : "");
        return new RegionLoad(new Region(id, table, new KeyRange(start, end), node, 10, new RegionCounters(1, 1, 0, 0),
                List.of(), range), cpu, 2 * cpu);
    }

    static ClusterSnapshot snapshot(Map<String, List<String>> ring) {
        return snapshot(ring, NODES);
    }

    /** The same regions, the nodes measuring as given. */
    static ClusterSnapshot snapshot(Map<String, List<String>> ring, List<Node> nodes) {
        return new ClusterSnapshot("cassandra", Instant.EPOCH, 60, nodes, loads().stream().map(RegionLoad::region).toList(),
                2, ring);
    }

    /** n2, which replicates the busiest ranges, measuring twice the others' CPU and disk. */
    static final List<Node> N2_BUSY = List.of(new Node("n1", 4, 1, 100), new Node("n2", 4, 2, 200),
            new Node("n3", 4, 1, 100));

    private static LoadModel model() {
        return new LoadModel(NODES, loads(), new double[] {0.5, 0, 0}, new double[] {0, 0, 0});
    }

    @Test
    void readsTokensReplicationAndPerReplicaLoad() {
        RingLoad ring = SnapshotRing.of(snapshot(RING), model());
        assertThat(ring.nodes()).extracting(RingNode::id).containsExactly("n1", "n2", "n3");
        assertThat(ring.nodes()).extracting(RingNode::token).containsExactly(T1, T2, T3);
        // each node's base: what it carries in the model beyond its replicas' share of its ranges
        assertThat(ring.nodes().get(0).baseCpu()).isCloseTo(3.5 - (1 + 1 + 1), Offset.offset(1e-12));
        assertThat(ring.nodes().get(1).baseCpu()).as("n2 served 2 of a2's ks.t, whose replicas share 3 each")
                .isCloseTo(9 - (1 + 1 + 3 + 5), Offset.offset(1e-12));
        assertThat(ring.segments()).extracting(RingSegment::endToken).containsExactly(T1, T2, T3, Long.MAX_VALUE);
        RingSegment a2 = ring.segments().get(1);
        // ks.t: the mean of its two replicas (2 and 4); ks.u: its one replica
        assertThat(a2.loads()).extracting(ReplicaLoad::replicationFactor).containsExactly(1, 2);
        assertThat(a2.loads().get(1).cpu()).isCloseTo(3.0, Offset.offset(1e-12));
        assertThat(a2.loads().get(0).cpu()).isCloseTo(5.0, Offset.offset(1e-12));
        // node loads: base + what each node replicates, which is each node's load in the model (n1 0.5 + 3, n2 9, n3 5)
        List<RingNodeLoad> loads = RingPlanner.loads(ring);
        assertThat(loads).extracting(RingNodeLoad::cpu).containsExactly(3.5, 9.0, 5.0);
    }

    @Test
    void nodesThatDeclareTheirCapacityCarryItOntoTheRingAndItsBalance() {
        List<Node> sized = List.of(new Node("n1", 4, 1, 100, new Capacity(4, 1e3)), new Node("n2", 4, 2, 200,
                new Capacity(8, 2e3)), new Node("n3", 4, 1, 100, new Capacity(4, 1e3)));
        LoadModel model = new LoadModel(sized, loads(), new double[] {0.5, 0, 0}, new double[] {0, 0, 0});
        RingLoad ring = SnapshotRing.of(snapshot(RING, sized), model);
        assertThat(ring.nodes()).extracting(RingNode::cpuCapacity).containsExactly(4.0, 8.0, 4.0);
        assertThat(ring.nodes()).extracting(RingNode::diskCapacity).containsExactly(1e3, 2e3, 1e3);
        // n2 carries 9 of 17.5 cores on half the CPU capacity (1.03 of its target), so n3's 5 on a quarter is the peak
        RingGrid g = new RingGrid(ring, 1);
        assertThat(g.balance(g.initial).cpuMaxOverMean()).isCloseTo(5 / (17.5 / 4), Offset.offset(1e-9));
        RingGrid equal = new RingGrid(SnapshotRing.of(snapshot(RING), model()), 1);
        assertThat(equal.balance(equal.initial).cpuMaxOverMean()).isCloseTo(9 / (17.5 / 3), Offset.offset(1e-9));
    }

    @Test
    void aGivenReplicationFactorWinsOverTheCount() {
        RingLoad ring = SnapshotRing.of(snapshot(RING), model(), Map.of("ks.t", 3, "ks.u", 1));
        assertThat(ring.segments().get(1).loads()).extracting(ReplicaLoad::replicationFactor).containsExactly(1, 3);
    }

    /** n1, n2 in dc1 (racks r1, r2), n3 in dc2; ks.t one replica per data centre, ks.u dc1 only. */
    static RingTopology topology(Map<String, Integer> ksT) {
        return new RingTopology(Map.of("n1", new RingTopology.Place("dc1", "r1"), "n2", new RingTopology.Place("dc1", "r2"),
                "n3", new RingTopology.Place("dc2", "r1")), Map.of("ks", RingTopology.Replication.networkTopology(ksT)));
    }

    @Test
    void withATopologyEachDataCentreCarriesItsOwnReplicasLoad() {
        RingLoad ring = SnapshotRing.of(snapshot(RING), model(), topology(Map.of("dc1", 1, "dc2", 1)));
        RingSegment a2 = ring.segments().get(1);
        // ks.t on n2 (dc1) 2 and n3 (dc2) 4 are two groups, not one mean of 3; ks.u (same keyspace) joins dc1's
        assertThat(a2.loads()).extracting(l -> l.group().dc()).containsExactly("dc1", "dc2");
        assertThat(a2.loads().get(0).cpu()).isCloseTo(2.0 + 5.0, Offset.offset(1e-12));
        assertThat(a2.loads().get(1).cpu()).isCloseTo(4.0, Offset.offset(1e-12));
        assertThat(ring.places()).containsKeys("n1", "n2", "n3");
        // dc2's one node holds dc2's replica of every range; dc1's replica of a2 is its primary n2
        // n2's base: its model load (9) beyond dc1's replica of a2 (7); the node totals are the model's
        assertThat(ring.nodes().get(1).baseCpu()).isCloseTo(9.0 - 7.0, Offset.offset(1e-9));
        List<RingNodeLoad> loads = RingPlanner.loads(ring);
        assertThat(loads.get(1).cpu()).isCloseTo(9.0, Offset.offset(1e-9));
        assertThat(loads.get(2).cpu()).isCloseTo(4.0 + 1.0, Offset.offset(1e-9));
    }

    @Test
    void aTopologyThatDoesNotCoverTheSnapshotIsNamed() {
        assertThatThrownBy(() -> SnapshotRing.of(snapshot(RING), model(), topology(Map.of("dc1", 1))))
                .hasMessage("regions: region ks.t/a2@n3 is on n3 in data centre dc2, where keyspace ks keeps no replica");
        RingTopology noKs = new RingTopology(topology(Map.of("dc1", 1)).nodes(), Map.of());
        assertThatThrownBy(() -> SnapshotRing.of(snapshot(RING), model(), noKs))
                .hasMessageStartingWith("regions: table ks.").hasMessageEndingWith(": keyspace ks has no replication");
    }

    @Test
    void aVnodeRingKeepsEveryNodesTokens() {
        // n1's second token closes the range that wraps, where the snapshot's regions are cut
        Map<String, List<String>> vnodes = Map.of("n1", List.of(Tokens.toKey(T1), Tokens.toKey(Long.MAX_VALUE)),
                "n2", List.of(Tokens.toKey(T2)), "n3", List.of(Tokens.toKey(T3)));
        VnodeRing ring = SnapshotRing.vnodes(snapshot(vnodes), model(), topology(Map.of("dc1", 1, "dc2", 1)));
        assertThat(ring.tokens()).containsEntry("n1", List.of(T1, Long.MAX_VALUE)).containsEntry("n3", List.of(T3));
        assertThat(ring.segments()).extracting(RingSegment::endToken).containsExactly(T1, T2, T3, Long.MAX_VALUE);
        assertThat(ring.members().get(0).baseCpu()).isEqualTo(0.5);
        assertThat(ring.segments().get(1).loads()).extracting(l -> l.group().dc()).containsExactly("dc1", "dc2");
    }

    /** Without a topology, replicas must be where SimpleStrategy puts them; a rack-aware placement is refused by range. */
    @Test
    void replicasNotOnTheNextNodesClockwiseAreRefusedOffline() {
        ClusterSnapshot s = snapshot(RING);
        List<Region> regions = s.regions().stream()
                .map(r -> r.id().equals("ks.t/a2@n3") ? r.onNode("n1") : r).toList();
        ClusterSnapshot racked = new ClusterSnapshot(s.store(), s.capturedAt(), s.windowSeconds(), s.nodes(), regions,
                s.replication(), s.ring());
        assertThatThrownBy(() -> SnapshotRing.of(racked, model()))
                .hasMessage("regions: range a2 of ks.t is on [n1, n2], not on [n2, n3] where SimpleStrategy places it; a ring "
                        + "placed by NetworkTopologyStrategy over racks or data centres needs its topology, which only the "
                        + "live sidecar reads");
        assertThatThrownBy(() -> RingStrategy.of(racked, new RingPlannerConfig(0.05, 4, 0, 4, 0.001))).hasMessageStartingWith("regions: range a2 ");
    }

    /** A token inside a region leaves the owner of part of its load unknown: refused, naming the region. */
    @Test
    void aRegionAcrossAVnodeTokenIsRefused() {
        Map<String, List<String>> vnodes = Map.of("n1", List.of(Tokens.toKey(T1), Tokens.toKey(5)),
                "n2", List.of(Tokens.toKey(T2)), "n3", List.of(Tokens.toKey(T3)));
        assertThatThrownBy(() -> SnapshotRing.vnodes(snapshot(vnodes), model(), topology(Map.of("dc1", 1, "dc2", 1))))
                .hasMessage("regions: region ks.t/a3@n3 crosses token 8000000000000005 of the ring; each region must lie "
                        + "within one token's range");
    }

    @Test
    void refusesWhatIsNotASingleTokenRing() {
        assertThatThrownBy(() -> SnapshotRing.tokens(snapshot(Map.of())))
                .hasMessage("ring: the snapshot lists no tokens (a Cassandra sidecar snapshot is needed)");
        assertThatThrownBy(() -> SnapshotRing.tokens(snapshot(Map.of("n1", List.of(Tokens.toKey(T1), Tokens.toKey(5)),
                "n2", List.of(Tokens.toKey(T2)), "n3", List.of(Tokens.toKey(T3))))))
                .hasMessage("ring.n1: 2 tokens (a vnode ring); only single-token rings are modelled");
        assertThatThrownBy(() -> SnapshotRing.tokens(snapshot(Map.of("n1", List.of("xyz"),
                "n2", List.of(Tokens.toKey(T2)), "n3", List.of(Tokens.toKey(T3))))))
                .hasMessage("ring.n1: token key: must be 16 lowercase hex digits, got xyz");
        assertThatThrownBy(() -> SnapshotRing.tokens(snapshot(Map.of("n2", List.of(Tokens.toKey(T2)),
                "n3", List.of(Tokens.toKey(T3))))))
                .hasMessage("ring.n1: node has no token");
    }
}
