package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.it.Poll;
import io.libra.it.cassandra.SidecarHttp.Reply;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar's failure paths against a real 4-node ring with RF=2 and RF=3 keyspaces (so moves
 * stream with 2 <= RF <= N-1), writes and reads at QUORUM: a pre-flight refusal (a sidecar that
 * cannot see the receiving node's disks), an abort in the middle of a two-move job, and a node killed (SIGKILL)
 * while its move streams, and the sidecar's own process killed (SIGKILL) mid-move and restarted.
 * Every acknowledged write reads back at QUORUM at the end.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class CassandraFailuresIT {
    private static final Logger LOG = LoggerFactory.getLogger(CassandraFailuresIT.class);
    /** n1..n4 own about 27, 11, 11 and 51 % of the ring. */
    private static final long[] TOKENS = {-9_000_000_000_000_000_000L, -7_000_000_000_000_000_000L,
        -5_000_000_000_000_000_000L, 4_000_000_000_000_000_000L};
    private static final String AUTH = "it-failures-secret";
    private static final Workload.Spec QUORUM_LOAD = new Workload.Spec(new String[] {"libra_rf2", "libra_rf3"},
            ConsistencyLevel.QUORUM, new long[] {24_000, 6_000}, 1024);
    private SidecarHttp api;

    @Test
    void refusesAbortsAndSurvivesANodeKilledWhileStreaming() throws Exception {
        long t0 = System.nanoTime();
        try (Ring ring = new Ring(TOKENS)) {
            ring.start();
            LOG.info("4-node ring up after {} s", (System.nanoTime() - t0) / 1_000_000_000);
            try (CqlSession session = Cql.session()) {
                Cql.keyspaces(session, 2, 3);
                Workload load = new Workload(session, 600, QUORUM_LOAD);
                try {
                    load.start();
                    Poll.until(Duration.ofSeconds(180), "10 MB acknowledged",
                            () -> load.acked.get(0).size() > 10_000);
                    refusedWithoutFreeDiskFigures(ring);
                    abortedMidJob(ring);
                    nodeKilledWhileStreaming(ring);
                    sidecarProcessKilledMidMoveResumes(ring);
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

    /**
     * A sidecar that cannot see the receiving node's disks (not co-located, as configured) refuses
     * the move before issuing it, saying why; the ring is untouched.
     */
    private void refusedWithoutFreeDiskFigures(Ring ring) throws Exception {
        long[] before = tokens(ring);
        try (Sidecar sidecar = sidecar(60, false)) {
            JsonNode job = await(rebalance(), "the pre-flight to refuse", Duration.ofSeconds(120),
                    j -> j.path("state").asText().equals("FAILED"));
            assertThat(job.path("detail").asText()).startsWith("pre-flight refused the move of ")
                    .contains("free disk (the sidecar is not on its host)").contains("execution.check_free_disk");
            assertThat(job.path("moves").get(0).path("state").asText()).isEqualTo("FAILED");
            assertThat(tokens(ring)).as("no move was issued").containsExactly(before);
        }
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
            assertThat(abort.status()).as(abort.body().toString()).isEqualTo(202);
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
            Poll.until(Duration.ofSeconds(60), mover + " to stream", () -> streaming(ring));
            victim.kill();
            long killedAt = System.nanoTime();
            JsonNode failed = await(poll, "the job to fail", Duration.ofSeconds(120),
                    j -> j.path("state").asText().equals("FAILED"));
            LOG.info("job failed {} s after the kill: {}", (System.nanoTime() - killedAt) / 1_000_000_000,
                    failed.path("detail").asText());
            assertThat(failed.path("leftMoving").asText()).isEqualTo(mover);
            assertThat(failed.path("remedy").asText()).contains("restart Cassandra on " + mover);
            JsonNode status = get("/api/v1/status").body();
            assertThat(status.path("alerts").toString()).contains(mover);
            assertThat(get("/metrics").raw()).contains("libra_cassandra_nodes_left_moving 1.0");
            ring.start(victim);
            ring.awaitAllUp();
            assertThat(ring.token(victim.index - 1)).as(mover + " back at its old token").isEqualTo(from);
            await(poll, "the owed cleanups and caps after the restart", Duration.ofSeconds(180),
                    j -> j.path("pendingCleanup").isEmpty() && j.path("streamThroughputBefore").isEmpty());
            // owing nothing more, the sidecar gives the lease up: another sidecar may take it at once
            Poll.until(Duration.ofSeconds(30), "the lease given up",
                    () -> get("/metrics").raw().contains("libra_cassandra_lease_held 0.0"));
        }
    }

    /**
     * The sidecar's own JVM is SIGKILLed while a move streams and started again: it finds the job
     * in its journal, waits out the move Cassandra carried on with, cleans up and puts the
     * streaming caps back; its planning history (the windows kept before the kill) is read back.
     */
    private void sidecarProcessKilledMidMoveResumes(Ring ring) throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path yaml = config(port, 240, true).write("sidecar-process");
        Path log = ItSidecarConfig.workdir().resolve("sidecar-process.log");
        api = new SidecarHttp(port);
        String poll;
        String mover;
        long to;
        try (SidecarProcess first = SidecarProcess.start(yaml, port, log)) {
            poll = rebalance();
            JsonNode moving = await(poll, "a move to start", Duration.ofSeconds(120),
                    j -> j.path("moves").get(0).path("state").asText().equals("MOVING"));
            mover = moving.path("moves").get(0).path("node").asText();
            to = Tokens.fromKey(moving.path("moves").get(0).path("toToken").asText());
            Poll.until(Duration.ofSeconds(60), mover + " to stream", () -> streaming(ring));
            first.kill();
        }
        LOG.info("sidecar process killed while {} streams", mover);
        try (SidecarProcess second = SidecarProcess.start(yaml, port, log)) {
            JsonNode memory = get("/api/v1/status").body().path("planningHistory");
            LOG.info("planning history after the restart: {}", memory);
            assertThat(memory.path("restored").asText()).startsWith("planning history restored from ");
            assertThat(memory.path("windows").asInt()).as("windows kept before the kill").isPositive();
            assertThat(memory.path("forecastToCheck").asBoolean()).as("a job started: no earlier forecast applies").isFalse();
            JsonNode done;
            try {
                done = await(poll, "the resumed job to finish", Duration.ofSeconds(300), j -> {
                    if (j.path("state").asText().matches("FAILED|ABORTED|ABANDONED")) {
                        throw new AssertionError("the resumed job ended " + j.path("state").asText() + ": " + j);
                    }
                    return j.path("state").asText().equals("DONE") && j.path("pendingCleanup").isEmpty()
                            && j.path("streamThroughputBefore").isEmpty();
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nthe sidecar process's log ends:\n" + second.logTail(), e);
            }
            assertThat(done.path("events").toString()).contains("daemon restarted: resuming the job");
            assertThat(ring.token(Integer.parseInt(mover.substring(1)) - 1)).as(mover + "'s token").isEqualTo(to);
            for (int i = 0; i < ring.nodes.size(); i++) {
                assertThat(ring.jmx(i).streamThroughput()).as("n" + (i + 1) + "'s own caps back").doesNotContain(1.0);
            }
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

    private static long[] tokens(Ring ring) throws IOException {
        long[] t = new long[ring.nodes.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = ring.token(i);
        }
        return t;
    }

    private Sidecar sidecar(int moveTimeoutSeconds) throws IOException {
        return sidecar(moveTimeoutSeconds, true);
    }

    private Sidecar sidecar(int moveTimeoutSeconds, boolean colocated) throws IOException {
        Sidecar s = new Sidecar(config(0, moveTimeoutSeconds, colocated).load("sidecar-failures")).start();
        api = new SidecarHttp(s.port());
        return s;
    }

    /** Streaming capped at 1 MiB/s, so a move lasts long enough to be aborted or killed in the middle. */
    private static ItSidecarConfig config(int port, int moveTimeoutSeconds, boolean colocated) {
        return new ItSidecarConfig(TOKENS.length, AUTH).port(port).colocated(colocated)
                .collection("window_seconds: 10, min_samples: 100, subranges_per_arc: 8")
                .planner("lambda: 0.02, max_moves: 2, slices_per_subrange: 4, min_improvement: 0.005, fluctuation_threshold: 0")
                .execution("dry_run: false, stream_throughput_mib_per_sec: 1, entire_sstable_stream_throughput_mib_per_sec: 1, "
                        + "move_timeout_seconds: " + moveTimeoutSeconds + ", on_restart: resume");
    }

    /** Waits for a plan with moves, then POSTs it pinned by its id; the job's poll path. */
    private String rebalance() {
        for (int attempt = 0; attempt < 10; attempt++) {
            JsonNode[] plan = new JsonNode[1];
            Poll.until(Duration.ofSeconds(120), "a plan with token moves", () -> {
                plan[0] = get("/api/v1/plan").body();
                return plan[0].path("actions").size() > 0;
            });
            Reply r = post("/api/v1/rebalance", AUTH, "{\"plan_id\": \"" + plan[0].path("planId").asText() + "\"}");
            if (r.status() == 202) {
                LOG.info("running plan {}: {}", plan[0].path("planId").asText(), plan[0].path("actions"));
                return r.body().path("poll").asText();
            }
            LOG.info("rebalance answered {}: {}", r.status(), r.body());
        }
        throw new AssertionError("no plan could be started");
    }

    private JsonNode await(String poll, String what, Duration timeout,
                           java.util.function.Predicate<JsonNode> done) {
        JsonNode[] job = new JsonNode[1];
        try {
            Poll.until(timeout, what, () -> {
                job[0] = get(poll).body();
                return done.test(job[0]);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the job last read: " + job[0], e);
        }
        LOG.info("{}: {}", what, job[0]);
        return job[0];
    }

    private Reply get(String path) {
        return api.get(path);
    }

    private Reply post(String path, String token, String body) {
        return api.post(path, token, body);
    }
}
