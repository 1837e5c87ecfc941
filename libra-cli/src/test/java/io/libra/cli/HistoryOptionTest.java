package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code libra plan --history}: windows learnt from, and windows refused with one line naming file and field. */
class HistoryOptionTest {
    @TempDir
    static Path dir;
    static Path w1;
    static Path w2;
    static Path now;

    @BeforeAll
    static void windows() throws IOException {
        w1 = window("w1.json", 1, "2026-01-01T00:00:00Z");
        w2 = window("w2.json", 2, "2026-01-01T00:01:00Z");
        now = window("now.json", 3, "2026-01-01T00:02:00Z");
    }

    /** A ycsb-a window; other seeds place regions differently, which is what makes costs learnable. */
    private static Path window(String name, int seed, String at) throws IOException {
        Path p = dir.resolve(name);
        assertThat(Cli.run("snapshot", "generate", "--scenario", "ycsb-a", "--seed", Integer.toString(seed),
                "--out", p.toString()).code()).isZero();
        Files.writeString(p, Files.readString(p).replace("\"2026-01-01T00:00:00Z\"", "\"" + at + "\""));
        return p;
    }

    private static Path edited(String name, Path from, String target, String replacement) throws IOException {
        Path p = dir.resolve(name);
        String text = Files.readString(from);
        assertThat(text).contains(target);
        Files.writeString(p, text.replace(target, replacement));
        return p;
    }

    @Test
    void plansFromTheSnapshotAndItsHistoryAndSaysHowItEstimated() throws IOException {
        Path out = dir.resolve("plan.json");
        Cli.Result r = Cli.run("plan", "--snapshot", now.toString(), "--history", w1.toString(), "--history", w2.toString(),
                "--out", out.toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("from 3 windows");
        String json = Files.readString(out);
        assertThat(json).contains("\"estimation\"").contains("\"windows\" : 3").contains("\"nodes\" : [");
    }

    @Test
    void thePreviousPlansForecastIsCheckedAgainstTheSnapshot() {
        Path previous = dir.resolve("previous.json");
        assertThat(Cli.run("plan", "--snapshot", w2.toString(), "--out", previous.toString()).code()).isZero();
        Cli.Result r = Cli.run("plan", "--snapshot", now.toString(), "--history", w2.toString(),
                "--previous-plan", previous.toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("last forecast off by");
    }

    /**
     * What the previous plan's estimate found a node to carry of its own (a CPU speed) is kept
     * where this snapshot's windows cannot show it again: the same regions on the same nodes.
     */
    @Test
    void aNodesOwnLoadInThePreviousPlanIsKeptWhileItsRegionsStayPut() throws IOException {
        Path earlier = edited("same-earlier.json", now, "\"2026-01-01T00:02:00Z\"", "\"2026-01-01T00:01:30Z\"");
        Path planned = dir.resolve("planned.json");
        assertThat(Cli.run("plan", "--snapshot", earlier.toString(), "--out", planned.toString()).code()).isZero();
        Path previous = edited("with-own-load.json", planned, "\"estimation\" : {",
                "\"estimation\" : {\"ownLoad\": [{\"id\": \"n01\", \"cpu\": \"speed\"}],");
        Path out = dir.resolve("kept.json");

        Cli.Result r = Cli.run("plan", "--snapshot", now.toString(), "--history", earlier.toString(),
                "--previous-plan", previous.toString(), "--out", out.toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("kept on 1 whose regions have not changed");
        assertThat(Files.readString(out)).contains("\"ownLoad\" : [ {").contains("\"id\" : \"n01\",\n      \"cpu\" : \"speed\"");
    }

    /** {@code now} a minute earlier with its first region on another node: the window before a move. */
    private static Path beforeAMove(String name) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode tree = (ObjectNode) json.readTree(now.toFile());
        ObjectNode region = (ObjectNode) tree.get("regions").get(0);
        String other = tree.get("nodes").get(0).get("id").asText().equals(region.get("node").asText())
                ? tree.get("nodes").get(1).get("id").asText() : tree.get("nodes").get(0).get("id").asText();
        region.put("node", other);
        tree.put("capturedAt", "2026-01-01T00:01:00Z");
        Path p = dir.resolve(name);
        json.writeValue(p.toFile(), tree);
        return p;
    }

    /**
     * Given the windows but not the plan made on the last of them, that plan is recalled by planning the
     * windows again: this one was not carried out, a region moved instead, so the check holds the
     * last window's estimate to that move.
     */
    @Test
    void withoutThePreviousPlanTheMovesSeenAfterTheLastWindowAreChecked() throws IOException {
        Cli.Result r = Cli.run("plan", "--snapshot", now.toString(), "--history", beforeAMove("before-a-move.json").toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("previous plan (no --previous-plan given): recalled from the windows: the moves seen "
                + "after the round before, as it estimated them, planned, 1 action").contains("last forecast off by");
    }

    @Test
    void windowsInWhichNothingMovedRecallARoundThatHeldBack() throws IOException {
        Path earlier = edited("unmoved-earlier.json", now, "\"2026-01-01T00:02:00Z\"", "\"2026-01-01T00:01:00Z\"");

        Cli.Result r = Cli.run("plan", "--snapshot", now.toString(), "--history", earlier.toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("previous plan (no --previous-plan given): recalled from the windows: no region moved "
                + "in the 2 windows given, balanced, 0 actions");
    }

    @Test
    void anotherStoreIsRefusedNamingFileAndField() throws IOException {
        Path other = edited("other-store.json", w1, "\"store\" : \"generic\"", "\"store\" : \"cassandra\"");
        assertRefused(Cli.run("plan", "--snapshot", now.toString(), "--history", other.toString()), other, "store");
    }

    @Test
    void windowsOutOfOrderAreRefused() {
        assertRefused(Cli.run("plan", "--snapshot", now.toString(), "--history", w2.toString(), "--history", w1.toString()),
                w2, "capturedAt");
    }

    @Test
    void anotherClustersNodesAreRefused() throws IOException {
        Path other = edited("other-cluster.json", w1, "\"n0", "\"x0");
        assertRefused(Cli.run("plan", "--snapshot", now.toString(), "--history", other.toString()), other, "nodes");
    }

    private static void assertRefused(Cli.Result r, Path file, String field) {
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith(file + ": " + field + ": ").doesNotContain("\n").doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }
}
