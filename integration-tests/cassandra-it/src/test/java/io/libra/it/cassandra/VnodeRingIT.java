package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;


import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.it.Poll;
import io.libra.it.cassandra.SidecarHttp.Reply;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real 3-node ring with {@code num_tokens: 4} (vnodes, Cassandra 5.0's way): the sidecar
 * observes only. /status says so and gives the nodes' own balance, the partition samplers stay
 * off, planning is suspended with the reason, no gauge is NaN, and the add-node advice gives a
 * joining node four new tokens from the last window, which is also served as a snapshot. Then a
 * 4th node is bootstrapped with those tokens, and the disk balance measured after the join is
 * compared with the advice's prediction (made on the windows since the ring last changed, pooled);
 * every write acknowledged at ALL reads back.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class VnodeRingIT {
    private static final Logger LOG = LoggerFactory.getLogger(VnodeRingIT.class);
    private static final String AUTH = "it-vnodes-secret";
    private static final int MEASURE_OPS = 12_000;
    /**
     * Wider than {@link AddNodeIT}'s 0.10: measured minus predicted disk Max/Mean over 13 runs
     * (2026-12-03 to 06) went from -0.03 to +0.13, mean +0.04. Both sides are noisy: the
     * measurement's per-node local writes stand 2-5% off what the nodes' token ownership gives
     * (two runs, ownership worked out from the logged tokens), the Max of four noisy nodes lands
     * above the Mean of their expectations, and the advice's search keeps the tokens its own
     * window's noise flatters most.
     */
    private static final double TOLERANCE = 0.15;
    /** How much worse than Cassandra's allocator, in predicted Δ, Libra's advice may be. */
    private static final double ALLOCATOR_MARGIN = 0.02;
    /** The advice runs Cassandra's allocator in a child JVM: about a second idle, far more on a busy two-core machine. */
    private static final Duration ADVICE_TIMEOUT = Duration.ofSeconds(90);
    private static final int WINDOW_SECONDS = 8;
    /**
     * Windows the advice pools (planner.history_windows 3, + 1): its prediction rests on 32 s of
     * requests, not on one 8-second window whose per-node counts vary by a few percent.
     */
    private static final int POOLED = 4;

    @Test
    void aVnodeRingIsObservedNeverPlanned() throws Exception {
        long t0 = System.nanoTime();
        try (Ring ring = Ring.vnodes(3, 4)) {
            ring.start();
            assertThat(ring.jmx(0).tokens()).as("n1's tokens").hasSize(4);
            try (CqlSession session = Cql.session()) {
                Cql.keyspaces(session, 1, 3);
                try (Workload load = new Workload(session, 500, Workload.Spec.AT_ALL); Sidecar sidecar = new Sidecar(new ItSidecarConfig(3, AUTH)
                        .collection("window_seconds: " + WINDOW_SECONDS + ", min_samples: 100, subranges_per_arc: 8")
                        .advice("cassandra_home: " + ring.lib().toAbsolutePath() + ", java: " + ring.javaHome().resolve("bin/java"))
                        .load("sidecar-vnodes")).start()) {
                    SidecarHttp api = new SidecarHttp(sidecar.port());
                    assertThat(sidecar.observeOnly()).isTrue();
                    load.start();
                    Poll.until(Duration.ofSeconds(120), POOLED + " windows with load",
                            () -> api.get("/api/v1/status").body().path("windows").asInt() >= POOLED
                                    && api.get("/api/v1/status").body().path("requestOps").asLong() > 0);
                    java.util.List<String> ringTokens = new java.util.ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        ringTokens.addAll(ring.jmx(i).tokens());
                    }
                    JsonNode advice = observedOnly(api, ringTokens);
                    againstCassandrasAllocator(api);
                    joinedAtTheAdvice(ring, load, advice);
                    load.close();
                    Acknowledged.readBack(session, load, ConsistencyLevel.ALL);
                }
            }
        } finally {
            LOG.info("IT took {} s", (System.nanoTime() - t0) / 1_000_000_000);
        }
    }

    /**
     * The advice weighed against Cassandra's own allocator on the same window: the sidecar runs
     * Cassandra 5.0's allocator itself ({@code advice.cassandra_home}: the nodes' own jars, in a
     * child JVM) for the tokens {@code allocate_tokens_for_local_replication_factor: 3} would give
     * a 4th node, and predicts both by its model in one answer ({@code cassandraAllocator}). Asking
     * again with those tokens ({@code tokens=}) weighs them the same way ({@code evaluated}). The
     * allocator balances replicated ownership, Libra places tokens where the load is: Libra's may
     * not be worse by more than {@link #ALLOCATOR_MARGIN} (its search is greedy, token by token, on
     * a grid of slices).
     */
    private static void againstCassandrasAllocator(SidecarHttp api) throws Exception {
        Reply first = api.get("/api/v1/advice/add-node?count=1", ADVICE_TIMEOUT);
        assertThat(first.status()).as("%s", first.body()).isEqualTo(200);
        JsonNode allocator = first.body().path("cassandraAllocator");
        assertThat(allocator.path("error").isMissingNode()).as("%s", allocator).isTrue();
        String csv = allocator.path("initialTokens").get(0).asText();
        assertThat(csv.split(",")).as("the allocator's tokens, %s", allocator).hasSize(4);
        Reply r = api.get("/api/v1/advice/add-node?count=1&tokens=" + csv, ADVICE_TIMEOUT);
        assertThat(r.status()).as("%s", r.body()).isEqualTo(200);
        JsonNode a = r.body();
        JsonNode theirs = a.path("cassandraAllocator").path("predicted");
        assertThat(a.path("cassandraAllocator").path("initialTokens").get(0).asText()).as("the allocator is deterministic")
                .isEqualTo(csv);
        assertThat(theirs).as("the allocator's tokens weighed as tokens= weighs them").isEqualTo(a.path("evaluated").path("predicted"));
        String line = String.format(java.util.Locale.ROOT, "4th node, predicted CPU/disk Max/Mean (Δ): before %s;"
                        + " Libra %s %s; Cassandra's allocator (rf 3, run by the sidecar) %s %s; Libra's ownership baseline %s %s",
                show(a.path("before")), a.path("nodes").get(0).path("initialToken").asText(), show(a.path("predicted")),
                csv, show(theirs),
                a.path("ownershipSplit").path("initialTokens").get(0).asText(), show(a.path("ownershipSplit").path("predicted")));
        LOG.info(line);
        System.out.println("VnodeRingIT: " + line);
        double ours = a.path("predicted").path("imbalanceDegree").asDouble();
        if (ours > theirs.path("imbalanceDegree").asDouble() + ALLOCATOR_MARGIN) {
            LOG.warn("the advice fell short of the allocator's; the last window is saved in {}", save(api.get("/api/v1/snapshot").raw()));
        }
        assertThat(ours).as(line).isLessThanOrEqualTo(theirs.path("imbalanceDegree").asDouble() + ALLOCATOR_MARGIN);
    }

    /** The window, for the offline advice ({@code libra-sidecar --advise-add-node}) to find why a prediction or search fell short. */
    private static java.nio.file.Path save(String window) {
        java.nio.file.Path saved = java.nio.file.Path.of("target", "vnode-advice-window.json").toAbsolutePath();
        try {
            java.nio.file.Files.writeString(saved, window);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return saved;
    }

    private static String show(JsonNode b) {
        return String.format(java.util.Locale.ROOT, "%.3f/%.3f (%.3f)", b.path("cpuMaxOverMean").asDouble(),
                b.path("diskMaxOverMean").asDouble(), b.path("imbalanceDegree").asDouble());
    }

    /**
     * The vnode advice checked by doing it: a 4th node bootstrapped with the advised four tokens
     * takes them, and by the nodes' own counters the disk Max/Mean after the join is within
     * {@link #TOLERANCE} of what the advice predicted.
     */
    private static void joinedAtTheAdvice(Ring ring, Workload load, JsonNode advice) throws Exception {
        java.util.List<String> tokens = java.util.List.of(advice.path("nodes").get(0).path("initialToken").asText().split(","));
        Usage.AroundJoin join = Usage.aroundJoin(ring, load, MEASURE_OPS, () -> ring.join(tokens));
        assertThat(ring.jmx(join.joined().index - 1).tokens()).as("n4 took the advised tokens")
                .containsExactlyInAnyOrderElementsOf(tokens);
        for (int i = 0; i < ring.nodes.size(); i++) { // with the saved window, what a miss is worked out from
            LOG.info("after the join {} has tokens {}", ring.nodes.get(i).id(), ring.jmx(i).tokens());
        }
        join.asPredictedBy(advice, TOLERANCE);
    }

    private static JsonNode observedOnly(SidecarHttp api, java.util.List<String> ringTokens) {
        JsonNode status = api.get("/api/v1/status").body();
        LOG.info("status: {}", status);
        assertThat(status.path("observeOnly").asBoolean()).isTrue();
        assertThat(status.path("plannable").asBoolean()).isFalse();
        assertThat(status.path("windowSeconds").asDouble()).as("the windows since the ring last changed, pooled")
                .isGreaterThan((POOLED - 1) * WINDOW_SECONDS);
        assertThat(status.path("problem").asText()).startsWith("vnode ring: observe-only");
        JsonNode balance = status.path("nodeBalance");
        assertThat(balance.path("nodes").asInt()).isEqualTo(3);
        assertThat(balance.path("cpuMaxOverMean").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(balance.path("diskMaxOverMean").asDouble()).isGreaterThanOrEqualTo(1.0);
        assertThat(status.path("nodes").findValuesAsText("up")).containsOnly("true");
        assertThat(status.path("sampledOps").asLong()).as("samplers off on a vnode ring").isZero();
        assertThat(status.path("tableSkew").findValuesAsText("table")).as("per-table skew, observed")
                .contains("libra_rf1.kv", "libra_rf3.kv");
        assertThat(status.path("tableSkew").findValues("opsMaxOverMean")).allSatisfy(x -> assertThat(x.asDouble())
                .isGreaterThanOrEqualTo(1.0));
        assertThat(status.path("hotPartitions")).as("no partitions sampled").isEmpty();
        assertThat(status.has("estimation")).as("nothing was estimated for a plan").isFalse();

        JsonNode plan = api.get("/api/v1/plan").body();
        assertThat(plan.path("status").asText()).isEqualTo("suspended");
        assertThat(plan.path("detail").asText()).startsWith("vnode ring: observe-only");
        assertThat(plan.path("actions")).isEmpty();
        assertThat(plan.path("planId").isNull()).isTrue();

        Reply advice = api.get("/api/v1/advice/add-node?count=1", ADVICE_TIMEOUT);
        assertThat(advice.status()).as("%s", advice.body()).isEqualTo(200);
        LOG.info("add-node advice: {}", advice.body());
        assertThat(advice.body().path("numTokens").asInt()).isEqualTo(4);
        JsonNode joining = advice.body().path("nodes").get(0);
        assertThat(joining.path("tokens")).hasSize(4);
        assertThat(joining.path("cassandraYaml").get(0).asText()).isEqualTo("num_tokens: 4");
        assertThat(joining.path("cassandraYaml").get(1).asText()).isEqualTo("initial_token: " + joining.path("initialToken").asText());
        for (String t : joining.path("initialToken").asText().split(",")) {
            assertThat(ringTokens).as("a new token is not one the ring has").doesNotContain(t);
        }
        assertThat(advice.body().path("predicted").path("imbalanceDegree").isNumber()).isTrue();
        Reply snapshot = api.get("/api/v1/snapshot");
        assertThat(snapshot.status()).as("a vnode ring's window is served for the offline advice").isEqualTo(200);
        save(snapshot.raw());
        assertThat(snapshot.body().path("ring").path("n1")).hasSize(4);
        Reply rebalance = api.post("/api/v1/rebalance", AUTH, "{\"plan_id\": \"000000000000\"}");
        assertThat(rebalance.status()).isEqualTo(409);

        String metrics = api.get("/metrics").raw();
        assertThat(metrics).contains("libra_cassandra_window_plannable 0.0").contains("libra_cassandra_node_cpu_cores")
                .doesNotContain("NaN");
        return advice.body();
    }
}
