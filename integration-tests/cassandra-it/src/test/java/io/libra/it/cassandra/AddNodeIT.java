package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.it.Poll;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The add-node advice checked by doing it: on a loaded 3-node single-token ring (n3 owns about
 * half of it), a 4th node is bootstrapped at the advised {@code initial_token}. By the nodes' own
 * counters over the same number of operations, the hottest node's disk work and n3's share of it
 * fall, the disk Max/Mean measured after the join is within {@link #TOLERANCE} of what the advice
 * predicted, and every write acknowledged at ALL reads back at ALL. (Once n3 is relieved, n1's
 * unchanged 35% arc sets the maximum: the measured Max/Mean hardly moves, 1.37 → 1.34, and the
 * honest prediction says so: 1.325. The advised token is asserted to split n3's arc rather than the
 * prediction to fall, which it does only by about 0.01.)
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class AddNodeIT {
    private static final Logger LOG = LoggerFactory.getLogger(AddNodeIT.class);
    private static final long[] TOKENS = Ring.SKEWED;
    private static final String AUTH = "it-add-node-secret";
    private static final int MEASURE_OPS = 16_000;
    /**
     * How far the measured disk Max/Mean after the join may be from the prediction: the advice's
     * window is one 10 s window, whose per-node disk bytes vary by a few percent. Before the
     * Collector timed each node on its own interval, the prediction missed by 0.20-0.25.
     */
    private static final double TOLERANCE = 0.10;

    @Test
    void aNodeJoinedAtTheAdvisedTokenRelievesTheHottestNode() throws Exception {
        long t0 = System.nanoTime();
        try (Ring ring = new Ring(TOKENS)) {
            ring.start();
            try (CqlSession session = Cql.session()) {
                Cql.keyspaces(session, 1, 3);
                try (Workload load = new Workload(session, 800, Workload.Spec.AT_ALL)) {
                    load.start();
                    JsonNode advice = advice(ring, load);
                    LOG.info("advice: {}", advice);
                    long token = Long.parseLong(advice.path("nodes").get(0).path("initialToken").asText());
                    long joining = System.nanoTime();
                    Usage.AroundJoin join = Usage.aroundJoin(ring, load, MEASURE_OPS, () -> ring.join(token));
                    LOG.info("n4 joined at {}; {} s from the first measurement's start to the last's end", token,
                            (System.nanoTime() - joining) / 1_000_000_000);
                    assertThat(ring.token(join.joined().index - 1)).isEqualTo(token);
                    assertThat(token).as("the advised token splits n3's arc (-6e18, 3e18], the hottest")
                            .isGreaterThan(TOKENS[1]).isLessThan(TOKENS[2]);
                    join.asPredictedBy(advice, TOLERANCE);
                    Usage before = join.before();
                    Usage after = join.after();
                    assertThat(max(after.diskBytes())).as("the hottest node's disk work falls")
                            .isLessThan(max(before.diskBytes()));
                    assertThat(share(after.diskBytes(), 2)).as("n3's share of disk work falls")
                            .isLessThan(share(before.diskBytes(), 2));
                    load.close();
                    LOG.info("workload: {} ops, {} failed", load.completed.get(), load.failed.get());
                    Acknowledged.readBack(session, load, ConsistencyLevel.ALL);
                }
            }
        } finally {
            LOG.info("IT took {} s", (System.nanoTime() - t0) / 1_000_000_000);
        }
    }

    /**
     * The sidecar's advice for one joining node, from its first plannable window; the load warms up
     * meanwhile (the sidecar's samplers are off the nodes before anything is measured: it stops here).
     */
    private static JsonNode advice(Ring ring, Workload load) throws Exception {
        try (Sidecar sidecar = new Sidecar(new ItSidecarConfig(3, AUTH)
                .collection("window_seconds: 10, min_samples: 100, subranges_per_arc: 8").load("sidecar-add-node")).start()) {
            Usage.measure(ring, load, MEASURE_OPS / 2); // warm-up, while the first window is measured
            SidecarHttp api = new SidecarHttp(sidecar.port());
            JsonNode[] advice = new JsonNode[1];
            Poll.until(Duration.ofSeconds(120), "the add-node advice", () -> {
                SidecarHttp.Reply r = api.get("/api/v1/advice/add-node?count=1");
                advice[0] = r.body();
                return r.status() == 200;
            });
            // the window the advice was made on, for `libra-sidecar --advise-add-node` offline
            java.nio.file.Files.writeString(ItSidecarConfig.workdir().resolve("add-node-snapshot.json"),
                    api.get("/api/v1/snapshot").raw());
            return advice[0];
        }
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElseThrow();
    }

    private static double share(double[] v, int i) {
        return v[i] / Arrays.stream(v).sum();
    }
}
