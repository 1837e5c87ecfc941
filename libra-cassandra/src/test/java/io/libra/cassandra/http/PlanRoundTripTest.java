package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.PlanIds;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.PlanDocument;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingPlannerConfig;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What GET /plan and GET /snapshot serve is what core's codecs (and so `libra explain`) read back. */
class PlanRoundTripTest {
    @Test
    void theSidecarsPlanAndSnapshotRoundTripThroughCoresCodecs() throws Exception {
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.window());
        RingPlan ring = new RingPlanner(new RingPlannerConfig(0.05, 2, 0, 4, 0.01)).plan(model.ring());
        Plan plan = ring.toPlan();
        assertThat(plan.actions()).isNotEmpty();
        String snapshot = SnapshotCodec.write(model.snapshot());
        String sha = SnapshotCodec.sha256(snapshot.getBytes(StandardCharsets.UTF_8));
        SidecarConfig c = new SidecarConfig();
        DaemonView v = new DaemonView(c, Instant.EPOCH, 1, null, null, model, plan, PlanIds.of(plan), snapshot, sha, null, null, false,
                true, 3, false, null, null);

        ObjectNode served = Views.plan(v);
        assertThat(served.path("planId").asText()).hasSize(12);
        PlanDocument back = PlanCodec.readDocument("GET /plan", Json.MAPPER.writeValueAsBytes(served));
        assertThat(back.snapshotSha256()).isEqualTo(sha);
        assertThat(back.plan().strategy()).isEqualTo(RingPlan.STRATEGY_PREFIX + ring.method());
        assertThat(back.plan().actions()).hasSameSizeAs(plan.actions());
        for (int i = 0; i < plan.actions().size(); i++) {
            MoveTokenAction want = (MoveTokenAction) plan.actions().get(i);
            MoveTokenAction got = (MoveTokenAction) back.plan().actions().get(i);
            assertThat(got.node()).isEqualTo(want.node());
            assertThat(got.fromToken()).isEqualTo(want.fromToken());
            assertThat(got.toToken()).isEqualTo(want.toToken());
            assertThat(got.sizeBytes()).isCloseTo(want.sizeBytes(), org.assertj.core.data.Offset.offset(1.0));
            assertThat(got.reason().note()).isEqualTo(want.reason().note());
        }
        assertThat(back.plan().predicted().imbalanceDegree()).isEqualTo(plan.predicted().imbalanceDegree());
        assertThat(PlanIds.of(back.plan())).isEqualTo(served.path("planId").asText());

        ClusterSnapshot s = SnapshotCodec.read("GET /snapshot", snapshot.getBytes(StandardCharsets.UTF_8));
        assertThat(s.store()).isEqualTo("cassandra");
        assertThat(s.regions()).hasSameSizeAs(model.snapshot().regions());
        assertThat(s.ring()).isEqualTo(model.snapshot().ring());
    }

    @Test
    void withoutAPlanTheDocumentIsStillAValidPlanSayingWhy() throws Exception {
        DaemonView v = new DaemonView(new SidecarConfig(), Instant.EPOCH, 0, null, null, null, null, null, null, null,
                "no window measured yet", null, false, true, 0, false, null, null);
        PlanDocument back = PlanCodec.readDocument("GET /plan", Json.MAPPER.writeValueAsBytes(Views.plan(v)));
        assertThat(back.plan().actions()).isEmpty();
        assertThat(back.plan().detail()).isEqualTo("no window measured yet");
    }

    @Test
    void theAddNodeAdviceGivesYamlLinesAndComparesWithTheOwnershipSplit() throws Exception {
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.window());
        DaemonView v = new DaemonView(new SidecarConfig(), Instant.EPOCH, 1, null, null, model, null, null, null, null, null, null,
                false, true, 3, false, null, null);
        Api.Response r = new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?count=2", null,
                new byte[0]);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        com.fasterxml.jackson.databind.JsonNode a = Json.MAPPER.readTree(r.body());
        assertThat(a.path("nodes")).hasSize(2);
        assertThat(a.path("nodes").get(0).path("cassandraYaml").get(1).asText())
                .isEqualTo("initial_token: " + a.path("nodes").get(0).path("initialToken").asText());
        assertThat(a.path("predicted").path("imbalanceDegree").asDouble())
                .isLessThanOrEqualTo(a.path("ownershipSplit").path("predicted").path("imbalanceDegree").asDouble() + 1e-9);
        Api.Response bad = new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?count=99", null,
                new byte[0]);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("query count: must be from 1 to 16, got 99");
        String token = a.path("ownershipSplit").path("initialTokens").get(0).asText();
        Api.Response weighed = new Api(new StubDaemon(() -> v)).handleSafely("GET",
                "/api/v1/advice/add-node?tokens=" + token, null, new byte[0]);
        assertThat(weighed.status()).as(weighed.body()).isEqualTo(200);
        com.fasterxml.jackson.databind.JsonNode e = Json.MAPPER.readTree(weighed.body()).path("evaluated");
        assertThat(e.path("initialToken").asText()).isEqualTo(token);
        assertThat(e.path("predicted")).as("the baseline's first token, weighed alone")
                .isEqualTo(Json.MAPPER.readTree(new Api(new StubDaemon(() -> v)).handleSafely("GET",
                        "/api/v1/advice/add-node?count=1", null, new byte[0]).body()).path("ownershipSplit").path("predicted"));
        Api.Response twice = new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?tokens=1,2",
                null, new byte[0]);
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.body()).contains("query tokens: a node of a single-token ring takes one, got 2");
        assertThat(new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?tokens=ab", null,
                new byte[0]).body()).contains("query tokens: \\\"ab\\\" is not a token");
    }

    /**
     * NetworkTopologyStrategy over two racks: the advice needs the new nodes' place, which the
     * operator names (dc and rack) when the ring's nodes are in more than one.
     */
    @Test
    void theAddNodeAdviceOnARackedRingNeedsTheNewNodesPlace() throws Exception {
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.racked());
        DaemonView v = new DaemonView(new SidecarConfig(), Instant.EPOCH, 1, null, null, model, null, null, null, null, null, null,
                false, true, 3, false, null, null);
        Api api = new Api(new StubDaemon(() -> v));
        Api.Response unplaced = api.handleSafely("GET", "/api/v1/advice/add-node?count=1", null, new byte[0]);
        assertThat(unplaced.status()).isEqualTo(400);
        assertThat(unplaced.body()).contains("query dc and rack: NetworkTopologyStrategy places the replicas and the nodes "
                + "are in [dc1/rack1, dc1/rack2]");
        assertThat(api.handleSafely("GET", "/api/v1/advice/add-node?dc=dc1", null, new byte[0]).body())
                .contains("query dc and rack: give both, non-empty, or neither");
        Api.Response placed = api.handleSafely("GET", "/api/v1/advice/add-node?count=1&dc=dc1&rack=rack2", null,
                new byte[0]);
        assertThat(placed.status()).as(placed.body()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(placed.body()).path("nodes")).hasSize(1);
    }

    /**
     * With advice.cassandra_home the advice also runs Cassandra's allocator; a run that fails (here
     * jars holding no Cassandra) is one line in its block while the advice itself stands, and on
     * a ring over two racks the allocator (run with one rack) is not compared, and says so.
     */
    @Test
    void theAllocatorsComparisonSaysWhyWhenItCannotBeMade(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home)
            throws Exception {
        java.nio.file.Files.createDirectories(home.resolve("lib"));
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(
                java.nio.file.Files.newOutputStream(home.resolve("lib/cassandra-all-0.jar")))) {
            jar.finish();
        }
        SidecarConfig c = new SidecarConfig();
        c.advice.cassandraHome = home.toString();
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(
                RingModelBuilderTest.oneRack(RingModelBuilderTest.window()));
        DaemonView v = new DaemonView(c, Instant.EPOCH, 1, null, null, model, null, null, null, null, null, null,
                false, true, 3, false, null, null);
        Api.Response r = new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?count=1", null,
                new byte[0]);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        com.fasterxml.jackson.databind.JsonNode a = Json.MAPPER.readTree(r.body());
        assertThat(a.path("nodes")).hasSize(1);
        assertThat(a.path("cassandraAllocator").path("error").asText()).as(r.body())
                .startsWith("Cassandra's allocator failed (exit 1): Caused by: java.lang.NoClassDefFoundError");
        RingModel twoRacks = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.window());
        DaemonView w = new DaemonView(c, Instant.EPOCH, 1, null, null, twoRacks, null, null, null, null, null, null,
                false, true, 3, false, null, null);
        Api.Response racked = new Api(new StubDaemon(() -> w)).handleSafely("GET", "/api/v1/advice/add-node?count=1", null,
                new byte[0]);
        assertThat(Json.MAPPER.readTree(racked.body()).path("cassandraAllocator").path("skipped").asText())
                .startsWith("the ring's nodes are in several data centres or racks");
    }

    /**
     * A vnode ring is observed, never planned on, but the add-node advice answers from its last
     * window: each new node takes the ring's num_tokens, in the hottest ranges.
     */
    @Test
    void onAVnodeRingTheAdviceComesFromTheLastWindow() throws Exception {
        SidecarConfig c = new SidecarConfig();
        c.collection.subrangesPerArc = 8;
        DaemonView v = new DaemonView(c, Instant.EPOCH, 1, null, RingModelBuilderTest.vnodes(), null, null, null, null,
                null, "vnode ring: observe-only", null, true, true, 3, false, null, null);
        Api.Response r = new Api(new StubDaemon(() -> v)).handleSafely("GET", "/api/v1/advice/add-node?count=1", null,
                new byte[0]);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        com.fasterxml.jackson.databind.JsonNode a = Json.MAPPER.readTree(r.body());
        assertThat(a.path("numTokens").asInt()).isEqualTo(4);
        com.fasterxml.jackson.databind.JsonNode node = a.path("nodes").get(0);
        assertThat(node.path("tokens")).hasSize(4);
        assertThat(node.path("cassandraYaml").get(0).asText()).isEqualTo("num_tokens: 4");
        assertThat(node.path("cassandraYaml").get(1).asText()).isEqualTo("initial_token: " + node.path("initialToken").asText());
        assertThat(a.path("predicted").path("imbalanceDegree").asDouble())
                .isLessThan(a.path("before").path("imbalanceDegree").asDouble());

        DaemonView noWindow = new DaemonView(c, Instant.EPOCH, 0, null, null, null, null, null, null, null,
                "no window measured yet", null, true, true, 3, false, null, null);
        Api.Response early = new Api(new StubDaemon(() -> noWindow)).handleSafely("GET", "/api/v1/advice/add-node", null,
                new byte[0]);
        assertThat(early.status()).isEqualTo(503);
        assertThat(early.body()).contains("no window measured yet");
    }
}
