package io.libra.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.http.Json;
import io.libra.cassandra.http.Views;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.format.SnapshotCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `libra-sidecar --advise-add-node SNAPSHOT`: the live endpoint's advice, offline from a saved snapshot. */
class AddNodeAdviceTest {
    @TempDir
    Path dir;

    @Test
    void offlineAdviceOnTheServedSnapshotEqualsTheLiveAdvice() throws Exception {
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.window());
        Path snapshot = Files.writeString(dir.resolve("snapshot.json"), SnapshotCodec.write(model.snapshot()));
        MainTest.Run r = MainTest.run("--advise-add-node", snapshot.toString(), "--count", "2");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode offline = Json.MAPPER.readTree(r.out());
        assertThat(offline).isEqualTo(Views.addNode(model.ring(), 4, 2));
        assertThat(offline.path("nodes")).hasSize(2);
        assertThat(offline.path("nodes").get(0).path("cassandraYaml").get(1).asText())
                .isEqualTo("initial_token: " + offline.path("nodes").get(0).path("initialToken").asText());
        assertThat(offline.path("predicted").path("imbalanceDegree").asDouble())
                .isLessThan(offline.path("before").path("imbalanceDegree").asDouble());
    }

    @Test
    void onAVnodeSnapshotTheAdviceGivesEachNewNodeTheRingsNumTokens() throws Exception {
        RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);
        Window w = RingModelBuilderTest.vnodes();
        Path snapshot = Files.writeString(dir.resolve("vnodes.json"), SnapshotCodec.write(builder.snapshot(w)));
        MainTest.Run r = MainTest.run("--advise-add-node", snapshot.toString(), "--count", "2");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode offline = Json.MAPPER.readTree(r.out());
        assertThat(offline).isEqualTo(Views.addVnodes(builder.vnodes(w), 4, 2, null));
        assertThat(offline.path("nodes")).hasSize(2).allSatisfy(n -> assertThat(n.path("tokens")).hasSize(4));
    }

    /** --cassandra-home adds Cassandra's own allocator (checked on real jars in VnodeRingIT); what it cannot use is one line. */
    @Test
    void theAllocatorsInstallationIsCheckedFirstAndAFailedRunLeavesTheAdvice() throws Exception {
        RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);
        Path vnodes = Files.writeString(dir.resolve("vnodes.json"), SnapshotCodec.write(builder.snapshot(RingModelBuilderTest.vnodes())));
        MainTest.assertOneLine(MainTest.run("--advise-add-node", vnodes.toString(), "--cassandra-home", dir.toString()), 2,
                "--cassandra-home: no Cassandra jar (apache-cassandra-*.jar or cassandra-all-*.jar) in " + dir);
        Path home = Files.createDirectories(dir.resolve("cassandra"));
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(
                Files.newOutputStream(home.resolve("apache-cassandra-5.0.6.jar")))) {
            jar.finish();
        }
        MainTest.assertOneLine(MainTest.run("--advise-add-node", vnodes.toString(), "--cassandra-home", home.toString(),
                "--allocator-rf", "0"), 2, "--allocator-rf: must be > 0, got 0");
        MainTest.Run r = MainTest.run("--advise-add-node", vnodes.toString(), "--cassandra-home", home.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode advice = Json.MAPPER.readTree(r.out());
        assertThat(advice.path("nodes")).hasSize(1);
        assertThat(advice.path("cassandraAllocator").path("error").asText())
                .startsWith("Cassandra's allocator failed (exit 1): Caused by: java.lang.NoClassDefFoundError");
    }

    @Test
    void tokensGivenAreWeighedByTheAdvicesModel() throws Exception {
        RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);
        Path vnodes = Files.writeString(dir.resolve("vnodes.json"), SnapshotCodec.write(builder.snapshot(RingModelBuilderTest.vnodes())));
        JsonNode advice = Json.MAPPER.readTree(MainTest.run("--advise-add-node", vnodes.toString()).out());
        String advised = advice.path("nodes").get(0).path("initialToken").asText();
        MainTest.Run r = MainTest.run("--advise-add-node", vnodes.toString(), "--tokens", advised);
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode evaluated = Json.MAPPER.readTree(r.out()).path("evaluated");
        assertThat(evaluated.path("initialToken").asText()).isEqualTo(advised);
        assertThat(evaluated.path("predicted")).as("the advised tokens, weighed again").isEqualTo(advice.path("predicted"));
        String taken = builder.snapshot(RingModelBuilderTest.vnodes()).ring().get("n1").get(0);
        long existing = io.libra.core.ring.Tokens.fromKey(taken);
        MainTest.assertOneLine(MainTest.run("--advise-add-node", vnodes.toString(), "--tokens", Long.toString(existing)), 2,
                vnodes + ": tokens: " + existing + " is already n1's token");
        MainTest.assertOneLine(MainTest.run("--advise-add-node", vnodes.toString(), "--tokens", "12,x"), 2,
                "tokens: \"x\" is not a token (a signed 64-bit decimal)");

        RingModel model = builder.build(RingModelBuilderTest.window());
        Path single = Files.writeString(dir.resolve("snapshot.json"), SnapshotCodec.write(model.snapshot()));
        JsonNode one = Json.MAPPER.readTree(MainTest.run("--advise-add-node", single.toString()).out());
        String token = one.path("nodes").get(0).path("initialToken").asText();
        JsonNode weighed = Json.MAPPER.readTree(MainTest.run("--advise-add-node", single.toString(), "--tokens", token).out());
        assertThat(weighed.path("evaluated").path("predicted")).isEqualTo(one.path("predicted"));
        MainTest.assertOneLine(MainTest.run("--advise-add-node", single.toString(), "--tokens", "1,2"), 2,
                single + ": tokens: a node of a single-token ring takes one, got 2");
    }

    @Test
    void whatTheAdvisorCannotUseIsOneLine() throws Exception {
        RingModel model = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.window());
        String json = SnapshotCodec.write(model.snapshot());
        Path snapshot = Files.writeString(dir.resolve("snapshot.json"), json);
        MainTest.assertOneLine(MainTest.run("--advise-add-node", snapshot.toString(), "--count", "17"), 2,
                "--count: must be from 1 to 16, got 17");
        Path vnodes = Files.writeString(dir.resolve("vnodes.json"), json.replace("\"" + model.snapshot().ring().get("n1").get(0)
                + "\"", "\"" + model.snapshot().ring().get("n1").get(0) + "\", \"0000000000000001\""));
        MainTest.assertOneLine(MainTest.run("--advise-add-node", vnodes.toString()), 2, vnodes + ": regions: region ");
        assertThat(MainTest.run("--advise-add-node", vnodes.toString()).err()).as("a token inside a region: its owner is unknown")
                .contains("crosses token 0000000000000001 of the ring");
        Path racked = Files.writeString(dir.resolve("racked.json"), SnapshotCodec.write(
                new RingModelBuilder(8, EstimationConfig.DEFAULT).build(RingModelBuilderTest.racked()).snapshot()));
        MainTest.assertOneLine(MainTest.run("--advise-add-node", racked.toString()), 2, racked + ": regions: range n3.");
        assertThat(MainTest.run("--advise-add-node", racked.toString()).err())
                .as("NetworkTopologyStrategy over two racks: the snapshot's replicas are not the next nodes clockwise")
                .contains("of ks3.kv is on [n2, n3], not on [n1, n3] where SimpleStrategy places it");
        Path broken = Files.writeString(dir.resolve("broken.json"), "{");
        assertThat(MainTest.run("--advise-add-node", broken.toString()).err()).startsWith("libra-sidecar: " + broken + ": ");
        MainTest.assertOneLine(MainTest.run("--advise-add-node", dir.resolve("none.json").toString()), 2,
                dir.resolve("none.json") + ": cannot read: ");
    }
}
