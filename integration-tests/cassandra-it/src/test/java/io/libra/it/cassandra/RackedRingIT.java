package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.it.Poll;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar on rings where replicas are not the next nodes clockwise, each with a
 * NetworkTopologyStrategy keyspace (GossipingPropertyFileSnitch):
 * <ul>
 *   <li>racks: three nodes in dc1, n1 in rack r1, n2 and n3 in r2, {dc1: 2} (the range n2 owns is
 *       on n2 and n1, not n3);</li>
 *   <li>two data centres: n1 and n2 in dc1, n3 and n4 in dc2, {dc1: 1, dc2: 1} (the range n1 owns is
 *       on n1 and n3, not n2).</li>
 * </ul>
 * The sidecar reads the topology, plans and runs one move, and cleans exactly the nodes Cassandra's
 * own placement says lost ranges of that keyspace; every write acknowledged at QUORUM reads back.
 */
@Timeout(value = 14, unit = TimeUnit.MINUTES)
class RackedRingIT {
    private static final Logger LOG = LoggerFactory.getLogger(RackedRingIT.class);
    private static final String AUTH = "it-racks-secret";

    @Test
    void movesAndCleansUpByTheRacks() throws Exception {
        try (Ring ring = Ring.placed(Ring.SKEWED, new String[] {"dc1", "dc1", "dc1"}, new String[] {"r1", "r2", "r2"})) {
            ring.start();
            try (CqlSession session = Cql.session("dc1")) {
                Cql.keyspaces(session, 1);
                create(session, "libra_racks", "{'class': 'NetworkTopologyStrategy', 'dc1': 2}");
                assertThat(holders(ring, "libra_racks", Ring.SKEWED[1])).as("n2's range is on n2 and n1 (racks), not n3")
                        .containsExactly("n1", "n2");
                moveAndCleanUp(ring, session, new String[] {"libra_rf1", "libra_racks"}, "libra_racks", "racked");
            }
        }
    }

    @Test
    void movesAndCleansUpInEachDataCentre() throws Exception {
        long[] tokens = {-9_000_000_000_000_000_000L, -6_000_000_000_000_000_000L, 3_000_000_000_000_000_000L,
            5_000_000_000_000_000_000L};
        try (Ring ring = Ring.placed(tokens, new String[] {"dc1", "dc1", "dc2", "dc2"}, new String[] {"r1", "r1", "r1", "r1"})) {
            ring.start();
            try (CqlSession session = Cql.session("dc1")) {
                create(session, "libra_dcs", "{'class': 'NetworkTopologyStrategy', 'dc1': 1, 'dc2': 1}");
                create(session, "libra_dcs_all", "{'class': 'NetworkTopologyStrategy', 'dc1': 2, 'dc2': 2}");
                assertThat(holders(ring, "libra_dcs", tokens[0])).as("n1's range is on n1 and n3 (one per data centre), not n2")
                        .containsExactly("n1", "n3");
                moveAndCleanUp(ring, session, new String[] {"libra_dcs", "libra_dcs_all"}, "libra_dcs", "dcs");
            }
        }
    }

    private static void create(CqlSession session, String keyspace, String replication) {
        session.execute("CREATE KEYSPACE " + keyspace + " WITH replication = " + replication);
        session.execute("CREATE TABLE " + keyspace + ".kv (k text PRIMARY KEY, v blob)");
        Poll.until(Duration.ofSeconds(60), "schema agreement", session::checkSchemaAgreement);
    }

    /**
     * Loads {@code keyspaces} (90% / 10%) at QUORUM, runs the sidecar's one-move plan, and checks the
     * job cleaned exactly the nodes that lost ranges of {@code placed}, by Cassandra's own range maps.
     */
    private void moveAndCleanUp(Ring ring, CqlSession session, String[] keyspaces, String placed, String name)
            throws Exception {
        Workload load = new Workload(session, 800, new Workload.Spec(keyspaces, ConsistencyLevel.QUORUM,
                new long[] {20_000, 6_000}, 512));
        try (Sidecar sidecar = new Sidecar(new ItSidecarConfig(ring.nodes.size(), AUTH).planner("lambda: 0.05, max_moves: 1, "
                + "slices_per_subrange: 4, min_improvement: 0.01, fluctuation_threshold: 0").load(name)).start()) {
            SidecarHttp api = new SidecarHttp(sidecar.port());
            Rebalance rebalance = new Rebalance(api, AUTH);
            load.start();
            rebalance.awaitPlan();
            long dcs = ring.nodes.stream().map(n -> n.dc).distinct().count();
            assertThat(api.get("/api/v1/status").body().path("nodeBalance").path("byDatacenter").size())
                    .as("/status nodeBalance per data centre, when there are several").isEqualTo(dcs > 1 ? (int) dcs : 0);
            Map<List<String>, List<String>> before = ring.jmx(0).rangeToEndpoints(placed);
            JsonNode job = rebalance.runToTheEnd();
            Map<List<String>, List<String>> after = ring.jmx(0).rangeToEndpoints(placed);
            Set<String> lost = lostRanges(before, after);
            LOG.info("{}: {} lost ranges on {}; job: {}", name, placed, lost, job);
            assertThat(lost).as("the move took ranges of " + placed + " away from some node").isNotEmpty();
            Set<String> cleaned = new TreeSet<>();
            for (JsonNode m : job.path("moves")) {
                m.path("cleanedUp").forEach(c -> cleaned.add(c.asText()));
            }
            assertThat(cleaned.stream().filter(c -> c.endsWith(":" + placed)).map(c -> c.substring(0, c.indexOf(':'))))
                    .as("cleaned by Cassandra's placement").containsExactlyInAnyOrderElementsOf(lost);
        } finally {
            load.close();
        }
        Acknowledged.readBack(session, load, ConsistencyLevel.QUORUM);
    }

    /** The nodes holding the range of {@code keyspace} that contains {@code token}, by Cassandra's own range map. */
    private static List<String> holders(Ring ring, String keyspace, long token) throws IOException {
        return holdersAt(ring.jmx(0).rangeToEndpoints(keyspace), BigInteger.valueOf(token));
    }

    /** Nodes that held some part of the ring before and not after: the ones that must be cleaned. */
    private static Set<String> lostRanges(Map<List<String>, List<String>> before, Map<List<String>, List<String>> after) {
        Set<BigInteger> bounds = new TreeSet<>();
        for (Map<List<String>, List<String>> m : List.of(before, after)) {
            m.keySet().forEach(r -> r.forEach(t -> bounds.add(new BigInteger(t))));
        }
        Set<String> lost = new TreeSet<>();
        for (BigInteger end : bounds) { // each range (previous bound, end] is one piece on both maps
            List<String> was = holdersAt(before, end);
            List<String> now = holdersAt(after, end);
            was.stream().filter(n -> !now.contains(n)).forEach(lost::add);
        }
        return lost;
    }

    /** The replicas of the range (start, end] holding {@code token}, as node ids n1..n4. */
    private static List<String> holdersAt(Map<List<String>, List<String>> ranges, BigInteger token) {
        for (Map.Entry<List<String>, List<String>> e : ranges.entrySet()) {
            BigInteger start = new BigInteger(e.getKey().get(0));
            BigInteger end = new BigInteger(e.getKey().get(1));
            boolean inside = start.compareTo(end) < 0 ? token.compareTo(start) > 0 && token.compareTo(end) <= 0
                    : token.compareTo(start) > 0 || token.compareTo(end) <= 0;
            if (inside) {
                List<String> ids = new ArrayList<>();
                e.getValue().forEach(ep -> ids.add("n" + ep.replaceFirst("^/", "").replaceFirst(":\\d+$", "").substring(8)));
                return ids.stream().sorted().toList();
            }
        }
        throw new AssertionError("no range holds " + token + " in " + ranges);
    }
}
