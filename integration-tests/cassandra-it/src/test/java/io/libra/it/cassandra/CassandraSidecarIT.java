package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.it.Poll;
import io.libra.it.cassandra.SidecarHttp.Reply;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.CqlLease;
import io.libra.cassandra.exec.Executor;
import io.libra.cassandra.exec.Job;
import io.libra.cassandra.exec.Journal;
import io.libra.core.Planner;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.PlanDocument;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.ring.RingApplier;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar against a real 3-node Cassandra 5.0 ring with unbalanced single tokens: it plans
 * token moves from what it measures, executes them through its HTTP API while a node is
 * stopped and restarted, and the ring ends more balanced in CPU and disk without losing a write.
 * Run under {@code flock /tmp/libra-cluster.lock} on a shared machine.
 */
@Timeout(value = 14, unit = TimeUnit.MINUTES)
class CassandraSidecarIT {
    private static final Logger LOG = LoggerFactory.getLogger(CassandraSidecarIT.class);
    private static final long[] TOKENS = Ring.SKEWED;
    private static final String AUTH = "it-secret";
    /** Operations per measured window: 30 000 keeps the CPU Max/Mean noise (sd ~0.02 at 20 000) well under the improvement. */
    private static final int MEASURE_OPS = 30_000;
    private SidecarHttp api;

    @Test
    void plansAndExecutesTokenMovesSafely() throws Exception {
        long t0 = System.nanoTime();
        try (Ring ring = new Ring(TOKENS)) {
            ring.start();
            LOG.info("ring up after {} s", (System.nanoTime() - t0) / 1_000_000_000);
            try (CqlSession session = Cql.session()) {
                Cql.keyspaces(session, 1, 3);
                serverTokensMatchTheDriversMurmur3(ring, session);
                Workload load = new Workload(session, 1000);
                Workload after = null;
                try (Sidecar sidecar = new Sidecar(config()).start()) {
                    api = new SidecarHttp(sidecar.port());
                    load.start();
                    Usage.measure(ring, load, MEASURE_OPS / 2); // warm-up: JIT, connection pools
                    Usage before = Usage.measureQuiet(ring, load, MEASURE_OPS);
                    LOG.info("before: cpu Max/Mean {} disk Max/Mean {} ({})", before.cpuMaxOverMean(),
                            before.diskMaxOverMean(), before);
                    cassandraDiskCountersExist(ring);
                    JsonNode plan = awaitPlan();
                    LOG.info("plan: {}", plan);
                    servedPlanChecksOutOffline();
                    hotPartitionsNameTheirReplicas();
                    badRequestsGet4xx();
                    aLeaseHeldByAnotherSidecarRefusesTheJob(session);
                    JsonNode job = rebalanceThroughANodeFailure(ring);
                    assertMovesApplied(ring, job);
                    theJobGaveItsLeaseUp(session);
                    streamingCountersSawTheMoves(ring);
                    load.close();
                    // a fresh session routes by the new token map (the old one may still route
                    // moved ranges through their former owner as coordinator)
                    try (CqlSession fresh = Cql.session()) {
                        after = new Workload(fresh, load);
                        after.start();
                        Usage.measure(ring, after, MEASURE_OPS / 2); // the restarted n2 and cleanups settle
                        Usage balanced = Usage.measureQuiet(ring, after, MEASURE_OPS);
                        LOG.info("after: cpu Max/Mean {} disk Max/Mean {} ({})", balanced.cpuMaxOverMean(),
                                balanced.diskMaxOverMean(), balanced);
                        after.close();
                        forecastOfTheJobIsChecked();
                        restartedDaemonResumesAnInterruptedMove(ring, job);
                        assertThat(load.completed.get() + after.completed.get()).isGreaterThan(3L * MEASURE_OPS);
                        Acknowledged.readBack(fresh, load, ConsistencyLevel.ALL);
                        assertThat(balanced.cpuMaxOverMean()).as("cpu Max/Mean improves").isLessThan(before.cpuMaxOverMean());
                        assertThat(balanced.diskMaxOverMean()).as("disk Max/Mean improves")
                                .isLessThan(before.diskMaxOverMean());
                    }
                } finally {
                    load.close();
                    if (after != null) {
                        after.close();
                    }
                }
            }
        } finally {
            LOG.info("IT took {} s", (System.nanoTime() - t0) / 1_000_000_000);
        }
    }

    /** The daemon takes a sampled key's token from the node (getToken); it must be the driver's Murmur3. */
    private static void serverTokensMatchTheDriversMurmur3(Ring ring, CqlSession s) throws IOException {
        for (String key : List.of("key-0-0", "key-0-1", "ü-ñ", "a much longer partition key than the others")) {
            assertThat(ring.jmx(0).token("libra_rf1", "kv", key)).as("token of '" + key + "'")
                    .isEqualTo(Long.toString(Cql.token(s, key)));
        }
    }

    /** The counters the daemon falls back on when it is not co-located with a node. */
    private static void cassandraDiskCountersExist(Ring ring) throws IOException {
        for (int i = 0; i < 3; i++) {
            assertThat(ring.jmx(i).gauge("type=Table,name=MemtableLiveDataSize")).isPositive();
            assertThat(ring.jmx(i).counter("type=Table,name=BytesFlushed")).isNotNegative();
            assertThat(ring.jmx(i).counter("type=Compaction,name=BytesCompacted")).isNotNegative();
        }
    }

    /** Streaming counters exist only once a node has streamed (the daemon reads 0 until then). */
    private static void streamingCountersSawTheMoves(Ring ring) throws IOException {
        long in = 0;
        long out = 0;
        for (int i = 0; i < 3; i++) {
            try {
                in += ring.jmx(i).counter("type=Streaming,name=TotalIncomingBytes");
                out += ring.jmx(i).counter("type=Streaming,name=TotalOutgoingBytes");
            } catch (IOException e) {
                assertThat(e).hasMessageContaining("not registered"); // this node never streamed
            }
        }
        assertThat(in).as("bytes streamed in by the moves").isPositive();
        assertThat(out).as("bytes streamed out by the moves").isPositive();
    }

    private static SidecarConfig config() throws IOException {
        return new ItSidecarConfig(3, AUTH).load("sidecar");
    }

    /**
     * /status lists the sampled partitions with Cassandra's replicas of each: one node for the RF=1
     * keyspace, all three for the RF=3 one (the workload's keys, uniform, are each sampled rarely).
     */
    private void hotPartitionsNameTheirReplicas() {
        JsonNode hot = get("/api/v1/status").body().path("hotPartitions");
        List<JsonNode> ours = new java.util.ArrayList<>();
        hot.forEach(h -> {
            if (h.path("table").asText().startsWith("libra_rf")) {
                ours.add(h);
            }
        });
        assertThat(ours).as("sampled partitions of the workload's tables in %s", hot).isNotEmpty();
        for (JsonNode h : ours) {
            int rf = h.path("table").asText().startsWith("libra_rf3.") ? 3 : 1;
            assertThat(h.path("replicas")).as("replicas of %s", h).hasSize(rf);
        }
    }

    private JsonNode awaitPlan() {
        JsonNode[] plan = new JsonNode[1];
        Poll.until(Duration.ofSeconds(120), "a plan with token moves", () -> {
            plan[0] = get("/api/v1/plan").body();
            return plan[0].path("actions").size() > 0;
        });
        JsonNode p = plan[0];
        assertThat(p.path("format").asText()).isEqualTo("libra.plan/v1");
        for (JsonNode a : p.path("actions")) {
            assertThat(a.path("type").asText()).isEqualTo("moveToken");
            assertThat(a.path("toToken").asText()).hasSize(16);
            assertThat(a.path("reason").path("note").asText()).contains("Δ");
        }
        assertThat(p.path("predicted").path("imbalanceDegree").asDouble())
                .isLessThan(p.path("before").path("imbalanceDegree").asDouble());
        JsonNode load = get("/api/v1/load").body();
        assertThat(load.path("subRanges").size()).isEqualTo(24);
        JsonNode status = get("/api/v1/status").body();
        assertThat(status.path("nodes").findValuesAsText("diskSource")).containsOnly("proc");
        // SimpleSnitch, as NodeProcess configures every node
        assertThat(status.path("nodes").findValuesAsText("datacenter")).containsExactly("datacenter1", "datacenter1",
                "datacenter1");
        assertThat(status.path("nodes").findValuesAsText("rack")).containsExactly("rack1", "rack1", "rack1");
        assertThat(status.path("tables").findValuesAsText("table")).contains("libra_rf1.kv", "libra_rf3.kv");
        // replication read from the nodes, both strategies planned
        java.util.List<String> replication = new java.util.ArrayList<>();
        for (JsonNode k : status.path("keyspaces")) {
            replication.add(k.path("keyspace").asText() + " " + k.path("strategy").asText() + " " + k.path("replication"));
        }
        assertThat(replication).containsExactly("libra_rf1 SimpleStrategy {\"replication_factor\":\"1\"}",
                "libra_rf3 NetworkTopologyStrategy {\"datacenter1\":\"3\"}");
        return p;
    }

    /**
     * The served plan and the snapshot it names, read back as `libra evaluate` reads them (core's
     * codecs, the CLI's estimate, SnapshotRing, RingApplier): every move fits the ring and Δ falls.
     * The two GETs may straddle a new window, so they are taken again until the plan names the snapshot.
     */
    private void servedPlanChecksOutOffline() {
        RingApplier.Applied[] applied = new RingApplier.Applied[1];
        Poll.until(Duration.ofSeconds(60), "a plan and the snapshot it names", () -> {
            Reply plan = get("/api/v1/plan");
            Reply snapshot = get("/api/v1/snapshot");
            byte[] bytes = snapshot.raw().getBytes(StandardCharsets.UTF_8);
            PlanDocument doc = PlanCodec.readDocument("GET /plan", plan.raw().getBytes(StandardCharsets.UTF_8));
            if (snapshot.status() != 200 || doc.plan().actions().isEmpty()
                    || !doc.snapshotSha256().equals(SnapshotCodec.sha256(bytes))) {
                return false;
            }
            ClusterSnapshot s = SnapshotCodec.read("GET /snapshot", bytes);
            applied[0] = RingApplier.apply(SnapshotRing.of(s, Planner.builder().build().estimate(s)), doc.plan().actions());
            return true;
        });
        LOG.info("offline: Δ {} -> {}", applied[0].balanceBefore().imbalanceDegree(),
                applied[0].balanceAfter().imbalanceDegree());
        assertThat(applied[0].balanceAfter().imbalanceDegree()).as("Δ after the served plan, offline")
                .isLessThan(applied[0].balanceBefore().imbalanceDegree());
    }

    /**
     * The first plannable window after the job checks the executed plan's forecast against what
     * the nodes measured: /status says so, and /metrics carries the error (and no NaN).
     */
    private void forecastOfTheJobIsChecked() {
        JsonNode[] estimation = new JsonNode[1];
        Poll.until(Duration.ofSeconds(120), "/status to report a checked forecast", () -> {
            estimation[0] = get("/api/v1/status").body().path("estimation");
            return estimation[0].path("forecastChecked").asBoolean();
        });
        LOG.info("estimation after the job: {}", estimation[0]);
        assertThat(estimation[0].path("lastPredictionError").asDouble()).isNotNegative();
        assertThat(estimation[0].path("windows").asInt()).isPositive();
        String metrics = get("/metrics").raw();
        assertThat(metrics).contains("libra_prediction_error").doesNotContain("NaN");
    }

    private void badRequestsGet4xx() {
        Reply noToken = post("/api/v1/rebalance", null, "");
        assertThat(noToken.status()).isEqualTo(401);
        assertThat(noToken.body().path("error").asText()).contains("bearer token");
        assertThat(post("/api/v1/rebalance", "wrong", "").status()).isEqualTo(401);
        Reply badJson = post("/api/v1/rebalance", AUTH, "{not json");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(badJson.body().path("error").asText()).startsWith("body: invalid JSON");
        Reply badField = post("/api/v1/rebalance", AUTH, "{\"dry_run\": \"yes\"}");
        assertThat(badField.status()).isEqualTo(400);
        assertThat(badField.body().path("error").asText()).contains("body.dry_run");
        assertThat(get("/api/v1/nothing").status()).isEqualTo(404);
        assertThat(get("/api/v1/jobs/nope").status()).isEqualTo(404);
        assertThat(post("/api/v1/status", AUTH, "").status()).isEqualTo(405);
        Reply noPlanId = post("/api/v1/rebalance", AUTH, "{}");
        assertThat(noPlanId.status()).isEqualTo(400);
        assertThat(noPlanId.body().path("error").asText()).startsWith("body.plan_id: required");
        Reply stale = post("/api/v1/rebalance", AUTH, "{\"plan_id\": \"000000000000\"}");
        assertThat(stale.status()).as("a plan id that is not the current plan's").isEqualTo(409);
        assertThat(stale.body().path("planId").asText()).hasSize(12).isNotEqualTo("000000000000");
    }

    /**
     * POST /rebalance naming the plan just read; a new window may have re-planned in between, in
     * which case the 409 names the new plan, which is then read and named (as an operator would).
     */
    private Reply rebalancePinned() {
        for (int attempt = 0; attempt < 5; attempt++) {
            JsonNode plan = get("/api/v1/plan").body();
            String id = plan.path("planId").asText();
            Reply r = post("/api/v1/rebalance", AUTH, "{\"plan_id\": \"" + id + "\"}");
            if (r.status() != 409 || !r.body().path("error").asText().contains("is not the current plan")) {
                return r;
            }
            LOG.info("plan {} was re-planned before the POST: {}", id, r.body());
        }
        throw new AssertionError("the plan kept changing between GET /plan and POST /rebalance");
    }

    /**
     * A second sidecar on this ring (owner other-sidecar:1) takes the execution lease with its
     * own LWT: this sidecar's rebalance is refused with 409 naming it, and nothing moves; once it
     * gives the lease up, the next job may run. Before that, a third holder whose row lapsed (deleted
     * here, as its TTL would) finds the lease lost at its next renewal and no longer claims it.
     */
    private void aLeaseHeldByAnotherSidecarRefusesTheJob(CqlSession session) throws IOException {
        SidecarConfig other = config();
        other.lease.owner = "other-sidecar:1";
        SidecarConfig lapsing = config();
        lapsing.lease.owner = "lapsed-sidecar:2";
        try (CqlLease lease = new CqlLease(other); CqlLease lapsed = new CqlLease(lapsing)) {
            assertThat(lapsed.acquire()).isEmpty();
            assertThat(lapsed.held()).isTrue();
            session.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                    .newInstance("DELETE FROM libra_sidecar.lease WHERE ring = 'libra-it' IF EXISTS")
                    .setConsistencyLevel(ConsistencyLevel.QUORUM).setSerialConsistencyLevel(ConsistencyLevel.SERIAL));
            assertThat(lease.acquire()).as("the other sidecar takes the lapsed lease").isEmpty();
            assertThat(lapsed.acquire()).get().asString().contains("is held by other-sidecar:1");
            assertThat(lapsed.held()).as("a lost lease is not claimed").isFalse();
            Reply refused = rebalancePinned();
            assertThat(refused.status()).as(refused.body().toString()).isEqualTo(409);
            assertThat(refused.body().path("error").asText())
                    .contains("the execution lease on ring libra-it is held by other-sidecar:1");
            assertThat(get("/api/v1/status").body().path("jobRunning").asBoolean()).isFalse();
            lease.release();
        }
    }

    /** The lease row is gone once the job has ended and cleaned up (DELETE … IF owner). */
    private void theJobGaveItsLeaseUp(CqlSession session) {
        Poll.until(Duration.ofSeconds(120), "the job to give its lease up", () ->
                session.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
                        .newInstance("SELECT owner FROM libra_sidecar.lease WHERE ring = 'libra-it'")
                        .setConsistencyLevel(ConsistencyLevel.QUORUM)).one() == null);
        assertThat(get("/metrics").raw()).contains("libra_cassandra_lease_held 0.0");
        assertThat(get("/api/v1/status").body().path("lease").path("enabled").asBoolean()).isTrue();
    }

    /** Pause, submit, stop n2, resume: the job waits and says why; n2 back: the job finishes. */
    private JsonNode rebalanceThroughANodeFailure(Ring ring) throws IOException {
        assertThat(post("/api/v1/pause", AUTH, "").body().path("paused").asBoolean()).isTrue();
        Reply submitted = rebalancePinned();
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(202);
        String poll = submitted.body().path("poll").asText();
        Poll.until(Duration.ofSeconds(30), "the job to wait for the operator",
                () -> get(poll).body().path("detail").asText().contains("paused by operator"));
        NodeProcess n2 = ring.nodes.get(1);
        n2.stop();
        assertThat(post("/api/v1/resume", AUTH, "").body().path("paused").asBoolean()).isFalse();
        Poll.until(Duration.ofSeconds(60), "the job to pause on the stopped node", () -> {
            JsonNode j = get(poll).body();
            return j.path("state").asText().equals("PAUSED") && j.path("detail").asText().contains("n2");
        });
        Poll.until(Duration.ofSeconds(60), "/status to report n2 down", () -> {
            for (JsonNode n : get("/api/v1/status").body().path("nodes")) {
                if (n.path("id").asText().equals("n2") && !n.path("up").asBoolean(true)) {
                    return true;
                }
            }
            return false;
        });
        assertThat(get("/api/v1/status").status()).isEqualTo(200);
        ring.start(n2);
        ring.awaitAllUp();
        JsonNode[] job = new JsonNode[1];
        Poll.until(Duration.ofSeconds(360), "the job to finish", () -> {
            job[0] = get(poll).body();
            String state = job[0].path("state").asText();
            if (state.equals("FAILED") || state.equals("ABANDONED")) {
                throw new AssertionError("job ended " + state + ": " + job[0]);
            }
            return state.equals("DONE");
        });
        LOG.info("job: {}", job[0]);
        assertThat(job[0].path("events").toString()).contains("paused: node n2").contains("resumed");
        return job[0];
    }

    /**
     * A journal left by a daemon that died after issuing a move (state MOVING) whose token the
     * node already owns: a new executor resumes it, finishes with cleanup and marks it DONE.
     */
    private static void restartedDaemonResumesAnInterruptedMove(Ring ring, JsonNode finished) throws Exception {
        JsonNode last = finished.path("moves").get(finished.path("moves").size() - 1);
        Path file = ItSidecarConfig.workdir().resolve("journal-resume.json");
        Journal journal = new Journal(file);
        Job job = new Job();
        job.id = "interrupted";
        Job.Move m = new Job.Move();
        m.node = last.path("node").asText();
        m.fromToken = last.path("fromToken").asText();
        m.toToken = last.path("toToken").asText();
        m.state = Job.MoveState.MOVING;
        job.moves.add(m);
        journal.write(job);
        SidecarConfig cfg = new SidecarConfig();
        cfg.execution.moveTimeoutSeconds = 120;
        List<io.libra.cassandra.jmx.CassandraNode> nodes = List.of(ring.jmx(0), ring.jmx(1), ring.jmx(2));
        try (Executor executor = new Executor(nodes, cfg, journal, j -> { })) {
            executor.recover();
            Poll.until(Duration.ofSeconds(120), "the resumed job to finish", () -> !executor.busy());
            Job after = journal.read().orElseThrow();
            assertThat(after.state).as(after.detail).isEqualTo(Job.State.DONE);
            assertThat(after.moves.get(0).state).isEqualTo(Job.MoveState.DONE);
            assertThat(after.events).anyMatch(e -> e.contains("resuming"));
        }
    }

    private static void assertMovesApplied(Ring ring, JsonNode job) throws IOException {
        Map<String, Long> expected = new HashMap<>();
        for (JsonNode m : job.path("moves")) {
            assertThat(m.path("state").asText()).isEqualTo("DONE");
            expected.put(m.path("node").asText(), Tokens.fromKey(m.path("toToken").asText()));
        }
        assertThat(expected).isNotEmpty();
        for (int i = 0; i < 3; i++) {
            String id = ring.nodes.get(i).id();
            long token = ring.token(i);
            assertThat(token).as(id + "'s token").isEqualTo(expected.getOrDefault(id, TOKENS[i]));
        }
    }

    private Reply get(String path) {
        return api.get(path);
    }

    private Reply post(String path, String token, String body) {
        return api.post(path, token, body);
    }
}
