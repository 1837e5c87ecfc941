package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.cassandra.Sidecar;
import io.libra.cassandra.config.ConfigLoader;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar's failure paths against a real 4-node ring with RF=2 and RF=3 keyspaces (so moves
 * stream with 2 <= RF <= N-1), writes and reads at QUORUM: a pre-flight refusal (hints held back
 * with dispatch paused), an abort in the middle of a two-move job, and a node killed (SIGKILL)
 * while its move streams. Every acknowledged write reads back at QUORUM at the end.
 */
@Timeout(value = 16, unit = TimeUnit.MINUTES)
class CassandraFailuresIT {
    private static final Logger LOG = LoggerFactory.getLogger(CassandraFailuresIT.class);
    /** n1..n4 own about 27, 11, 11 and 51 % of the ring. */
    private static final long[] TOKENS = {-9_000_000_000_000_000_000L, -7_000_000_000_000_000_000L,
        -5_000_000_000_000_000_000L, 4_000_000_000_000_000_000L};
    private static final String AUTH = "it-failures-secret";
    private static final String HINTS = "org.apache.cassandra.hints:type=HintsService";
    private static final Workload.Spec QUORUM_LOAD = new Workload.Spec(new String[] {"libra_rf2", "libra_rf3"},
            ConsistencyLevel.QUORUM, new long[] {24_000, 6_000}, 1024);
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String base;

    @Test
    void refusesAbortsAndSurvivesANodeKilledWhileStreaming() throws Exception {
        long t0 = System.nanoTime();
        try (Ring ring = new Ring(TOKENS)) {
            ring.start();
            LOG.info("4-node ring up after {} s", (System.nanoTime() - t0) / 1_000_000_000);
            try (CqlSession session = session()) {
                schema(session);
                Workload load = new Workload(session, 600, QUORUM_LOAD);
                try {
                    load.start();
                    Poll.until("10 MB acknowledged", Duration.ofSeconds(180),
                            () -> load.acked.get(0).size() > 10_000);
                    refusedWhileHintsWait(ring);
                    abortedMidJob(ring);
                    nodeKilledWhileStreaming(ring);
                    load.close();
                    LOG.info("workload: {} ops, {} failed", load.completed.get(), load.failed.get());
                    Acknowledged.readBack(session, load, ConsistencyLevel.QUORUM);
                } finally {
                    load.close();
                }
            }
        } finally {
            LOG.info("IT took {} s", (System.nanoTime() - t0) / 1_000_000_000);
        }
    }

    /** Hints for n4 held back (dispatch paused): the job waits, says why, and refuses after move_timeout. */
    private void refusedWhileHintsWait(Ring ring) throws Exception {
        NodeProcess n4 = ring.nodes.get(3);
        n4.stop();
        Poll.until("hints for the stopped n4", Duration.ofSeconds(60), () -> pendingHints(ring) > 0);
        for (int i = 0; i < 3; i++) {
            ring.jmx(i).jmx().invoke(HINTS, "pauseDispatch", new Object[0], new String[0]);
        }
        ring.start(n4);
        ring.awaitAllUp();
        long[] before = tokens(ring);
        try (Sidecar sidecar = sidecar(20)) {
            JsonNode job = await(rebalance(), "the job to refuse", Duration.ofSeconds(120),
                    j -> j.path("state").asText().equals("FAILED"));
            assertThat(job.path("detail").asText()).startsWith("ring not safe for 20 s: ").contains("holds hints for");
            assertThat(job.path("events").toString()).contains("paused: ").contains("holds hints for");
            assertThat(tokens(ring)).as("no move was issued").containsExactly(before);
        } finally {
            for (int i = 0; i < 3; i++) {
                ring.jmx(i).jmx().invoke(HINTS, "resumeDispatch", new Object[0], new String[0]);
            }
        }
        Poll.until("the held hints to be delivered", Duration.ofSeconds(120), () -> pendingHints(ring) == 0);
    }

    /** Abort while the first of two moves runs: it completes, the second never starts, cleanup runs. */
    private void abortedMidJob(Ring ring) throws Exception {
        long[] before = tokens(ring);
        try (Sidecar sidecar = sidecar(240)) {
            String poll = rebalance();
            JsonNode moving = await(poll, "the first move to start", Duration.ofSeconds(120),
                    j -> j.path("moves").get(0).path("state").asText().equals("MOVING"));
            assertThat(moving.path("moves").size()).as("a two-move plan").isEqualTo(2);
            String id = moving.path("jobId").asText();
            Reply abort = post("/api/v1/jobs/" + id + "/abort", AUTH, "");
            assertThat(abort.status).as(abort.body.toString()).isEqualTo(202);
            JsonNode job = await(poll, "the job to stop", Duration.ofSeconds(300),
                    j -> j.path("state").asText().equals("ABORTED"));
            assertThat(job.path("moves").get(0).path("state").asText()).isEqualTo("DONE");
            assertThat(job.path("moves").get(1).path("state").asText()).isEqualTo("PENDING");
            String second = job.path("moves").get(1).path("node").asText();
            int k = Integer.parseInt(second.substring(1)) - 1;
            assertThat(tokens(ring)[k]).as(second + " was not moved").isEqualTo(before[k]);
            await(poll, "the aborted job's cleanups", Duration.ofSeconds(120),
                    j -> j.path("pendingCleanup").isEmpty());
        }
    }

    /**
     * SIGKILL the moving node once it streams: the job fails at once and names the node and the
     * remedy; restarted, the node is NORMAL at its old token and the owed cleanups run.
     */
    private void nodeKilledWhileStreaming(Ring ring) throws Exception {
        try (Sidecar sidecar = sidecar(240)) {
            String poll = rebalance();
            JsonNode moving = await(poll, "a move to start", Duration.ofSeconds(120),
                    j -> j.path("moves").get(0).path("state").asText().equals("MOVING"));
            String mover = moving.path("moves").get(0).path("node").asText();
            long from = Tokens.fromKey(moving.path("moves").get(0).path("fromToken").asText());
            NodeProcess victim = ring.nodes.get(Integer.parseInt(mover.substring(1)) - 1);
            Poll.until(mover + " to stream", Duration.ofSeconds(60), () -> streaming(ring));
            victim.kill();
            long killedAt = System.nanoTime();
            JsonNode failed = await(poll, "the job to fail", Duration.ofSeconds(120),
                    j -> j.path("state").asText().equals("FAILED"));
            LOG.info("job failed {} s after the kill: {}", (System.nanoTime() - killedAt) / 1_000_000_000,
                    failed.path("detail").asText());
            assertThat(failed.path("leftMoving").asText()).isEqualTo(mover);
            assertThat(failed.path("remedy").asText()).contains("restart Cassandra on " + mover);
            JsonNode status = get("/api/v1/status").body;
            assertThat(status.path("alerts").toString()).contains(mover);
            assertThat(get("/metrics").raw).contains("libra_cassandra_nodes_left_moving 1.0");
            ring.start(victim);
            ring.awaitAllUp();
            assertThat(ring.token(victim.index - 1)).as(mover + " back at its old token").isEqualTo(from);
            await(poll, "the owed cleanups after the restart", Duration.ofSeconds(180),
                    j -> j.path("pendingCleanup").isEmpty());
        }
    }

    private static boolean streaming(Ring ring) {
        for (int i = 0; i < ring.nodes.size(); i++) {
            try {
                if (ring.jmx(i).currentStreams() > 0) {
                    return true;
                }
            } catch (IOException e) {
                // a node between states; ask the next
            }
        }
        return false;
    }

    private static int pendingHints(Ring ring) {
        int n = 0;
        for (int i = 0; i < ring.nodes.size(); i++) {
            try {
                n += ring.jmx(i).pendingHints();
            } catch (IOException e) {
                // the stopped node
            }
        }
        return n;
    }

    private static long[] tokens(Ring ring) throws IOException {
        long[] t = new long[ring.nodes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = ring.token(i);
        }
        return t;
    }

    private Sidecar sidecar(int moveTimeoutSeconds) throws IOException {
        Path dir = Path.of(System.getProperty("cassandra.workdir", "target/cassandra-it"));
        Path yaml = dir.resolve("sidecar-failures.yaml");
        StringBuilder sb = new StringBuilder("cluster_name: libra-it\ninstances:\n");
        for (int i = 1; i <= TOKENS.length; i++) {
            sb.append("  - {id: n").append(i).append(", host: 127.0.0.").append(i).append(", jmx_host: 127.0.0.1, jmx_port: ")
                    .append(i * 100 + 7000).append("}\n");
        }
        sb.append("http: {host: 127.0.0.1, port: 0, auth_token: ").append(AUTH).append("}\n")
                .append("collection: {window_seconds: 10, min_samples: 100, subranges_per_arc: 8}\n")
                .append("planner: {lambda: 0.02, max_moves: 2, slices_per_subrange: 4, min_improvement: 0.005, "
                        + "fluctuation_threshold: 0}\n")
                .append("execution: {dry_run: false, stream_throughput_mib_per_sec: 1, "
                        + "entire_sstable_stream_throughput_mib_per_sec: 1, journal: ")
                .append(dir.resolve("journal-failures.json")).append(", move_timeout_seconds: ").append(moveTimeoutSeconds)
                .append("}\n");
        Files.writeString(yaml, sb.toString());
        Sidecar s = new Sidecar(ConfigLoader.load(yaml, Map.of())).start();
        base = "http://127.0.0.1:" + s.port();
        return s;
    }

    /** Waits for a plan with moves, then POSTs it pinned by its id; the job's poll path. */
    private String rebalance() {
        for (int attempt = 0; attempt < 10; attempt++) {
            JsonNode[] plan = new JsonNode[1];
            Poll.until("a plan with token moves", Duration.ofSeconds(120), () -> {
                plan[0] = get("/api/v1/plan").body;
                return plan[0].path("actions").size() > 0;
            });
            Reply r = post("/api/v1/rebalance", AUTH, "{\"plan_id\": \"" + plan[0].path("planId").asText() + "\"}");
            if (r.status == 202) {
                LOG.info("running plan {}: {}", plan[0].path("planId").asText(), plan[0].path("actions"));
                return r.body.path("poll").asText();
            }
            LOG.info("rebalance answered {}: {}", r.status, r.body);
        }
        throw new AssertionError("no plan could be started");
    }

    private JsonNode await(String poll, String what, Duration timeout,
                           java.util.function.Predicate<JsonNode> done) {
        JsonNode[] job = new JsonNode[1];
        Poll.until(what, timeout, () -> {
            job[0] = get(poll).body;
            return done.test(job[0]);
        });
        LOG.info("{}: {}", what, job[0]);
        return job[0];
    }

    private static CqlSession session() {
        DriverConfigLoader cfg = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .build();
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", 9042))
                .withLocalDatacenter("datacenter1").withConfigLoader(cfg).build();
    }

    private static void schema(CqlSession s) {
        s.execute("CREATE KEYSPACE libra_rf2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
        s.execute("CREATE KEYSPACE libra_rf3 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        s.execute("CREATE TABLE libra_rf2.kv (k text PRIMARY KEY, v blob)");
        s.execute("CREATE TABLE libra_rf3.kv (k text PRIMARY KEY, v blob)");
        Poll.until("schema agreement", Duration.ofSeconds(60), () -> s.checkSchemaAgreement());
    }

    private record Reply(int status, JsonNode body, String raw) {
    }

    private Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private Reply post(String path, String token, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b);
    }

    private Reply send(HttpRequest.Builder b) {
        try {
            HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().startsWith("{") ? json.readTree(r.body()) : json.createObjectNode();
            return new Reply(r.statusCode(), body, r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
