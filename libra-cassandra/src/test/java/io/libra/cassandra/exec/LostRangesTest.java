package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.ring.RingTopology;
import io.libra.core.ring.RingTopology.Place;
import io.libra.core.ring.RingTopology.Replication;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LostRangesTest {
    private final Map<String, Long> ring = Map.of("a", -100L, "b", 0L, "c", 100L);
    /** Four nodes, two racks: a and b in r1, c and d in r2. */
    private final Map<String, Long> four = Map.of("a", -100L, "b", 0L, "c", 100L, "d", 200L);
    private static final Map<String, Place> RACKS = Map.of("a", new Place("dc1", "r1"), "b", new Place("dc1", "r1"),
            "c", new Place("dc1", "r2"), "d", new Place("dc1", "r2"));

    private static LostRanges simple(Map<String, Long> tokens, int rf) {
        Map<String, Place> places = new java.util.HashMap<>();
        tokens.keySet().forEach(id -> places.put(id, new Place("dc1", "r1")));
        return new LostRanges(new RingTopology(places, Map.of("ks", Replication.simple(rf))), List.of("ks"));
    }

    @Test
    void rf1MovingBackwardsLosesRangeOnTheMover() {
        assertThat(simple(ring, 1).losing(ring, "b", -50)).isEqualTo(Map.of("b", List.of("ks")));
    }

    @Test
    void rf1MovingForwardLosesRangeOnTheSuccessor() {
        assertThat(simple(ring, 1).losing(ring, "b", 50)).isEqualTo(Map.of("c", List.of("ks")));
    }

    @Test
    void fullReplicationLosesNothing() {
        assertThat(simple(ring, 3).losing(ring, "b", 50)).isEmpty();
    }

    @Test
    void rf2MovingForwardLosesOnTheNodeTwoAhead() {
        // b's arc grows to (−100, 50]: c no longer holds (0, 50] as primary, a no longer replicates it.
        assertThat(simple(ring, 2).losing(ring, "b", 50)).isEqualTo(Map.of("a", List.of("ks")));
    }

    @Test
    void theNodesThatGainAreTheOnesThatReceiveStreams() {
        assertThat(simple(ring, 1).gaining(ring, "b", 50)).containsExactly("b");
        assertThat(simple(ring, 1).gaining(ring, "b", -50)).containsExactly("c");
        assertThat(simple(ring, 3).gaining(ring, "b", 50)).isEmpty();
    }

    /**
     * NetworkTopologyStrategy with racks: the range (0, 50] that b takes from c was on c and a (the
     * next node in the other rack, d sharing c's rack), not on c and d as the next nodes clockwise
     * would have it; so a loses it and must be cleaned, d keeps what it had.
     */
    @Test
    void racksDecideWhoLosesUnderNetworkTopologyStrategy() {
        LostRanges nts = new LostRanges(new RingTopology(RACKS,
                Map.of("ks", Replication.networkTopology(Map.of("dc1", 2)), "flat", Replication.simple(2))),
                List.of("flat", "ks"));
        Map<String, List<String>> losing = nts.losing(four, "b", 50);
        assertThat(losing).isEqualTo(Map.of("a", List.of("ks"), "d", List.of("flat")));
        assertThat(nts.gaining(four, "b", 50)).containsExactly("b");
    }

    /** A keyspace core cannot place (here a transient factor) counts every node, so nothing stale is left behind. */
    @Test
    void aKeyspaceCoreCannotPlaceCountsEveryNode() throws IOException {
        FakeRing fake = new FakeRing(-100, 0, 100);
        fake.replication.put("tr", "NetworkTopologyStrategy {dc1=3/1}");
        fake.node("n3").rack = "rack2";
        LostRanges read = LostRanges.read(fake.ops(), fake.node("n1"));
        assertThat(read.keyspaces()).containsExactly("ks", "tr");
        assertThat(read.topology().nodes().get("n3")).isEqualTo(new Place("dc1", "rack2"));
        Map<String, Long> tokens = Map.of("n1", -100L, "n2", 0L, "n3", 100L);
        assertThat(read.losing(tokens, "n2", 50)).isEqualTo(Map.of("n1", List.of("tr"), "n2", List.of("tr"),
                "n3", List.of("ks", "tr")));
        assertThat(read.gaining(tokens, "n2", 50)).containsExactly("n1", "n2", "n3");
    }
}
