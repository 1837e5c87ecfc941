package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Malformed plans and plans that do not fit their snapshot: one line naming the plan's field, exit code 2. */
class BadPlanTest {
    static final String VALID = """
            {"format": "libra.plan/v1", "strategy": "libra", "snapshot": "",
             "actions": [
               {"type": "split", "region": "r-1", "splitKey": "40", "left": "r-1.l", "right": "r-1.r"},
               {"type": "move", "region": "r-1.r", "from": "rs-1", "to": "rs-2"},
               {"type": "merge", "regions": ["r-1.r", "r-2"], "merged": "r-m", "node": "rs-2"}],
             "predicted": {"cpuMaxOverMean": 1.04, "diskMaxOverMean": 1.03}}
            """;

    @TempDir
    Path dir;
    Path snapshot;

    @BeforeEach
    void writeSnapshot() throws IOException {
        snapshot = dir.resolve("snapshot.json");
        Files.writeString(snapshot, BadSnapshotTest.VALID);
    }

    private Cli.Result evaluate(String plan) throws IOException {
        Path file = dir.resolve("plan.json");
        Files.writeString(file, plan);
        return Cli.run("evaluate", "--snapshot", snapshot.toString(), "--plan", file.toString());
    }

    private String reject(String plan) throws IOException {
        Cli.Result r = evaluate(plan);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).hasSize(1);
        return r.err().strip();
    }

    private String expected(String pathAndReason) {
        return dir.resolve("plan.json") + ": " + pathAndReason;
    }

    @Test
    void validPlanFits() throws IOException {
        Cli.Result r = evaluate(VALID);
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("fits").contains("cpu Max/Mean").contains("rs-1").contains("rs-2");
    }

    @Test
    void wrongFormat() throws IOException {
        assertThat(reject(VALID.replace("libra.plan/v1", "libra.snapshot/v1")))
                .isEqualTo(expected("format: must be \"libra.plan/v1\", got \"libra.snapshot/v1\""));
    }

    @Test
    void missingActions() throws IOException {
        String noActions = VALID.substring(0, VALID.indexOf("\"actions\"")) + "\"predicted\": {\"cpuMaxOverMean\": 1, \"diskMaxOverMean\": 1}}";
        assertThat(reject(noActions)).isEqualTo(expected("actions: required field is missing"));
    }

    @Test
    void unknownActionType() throws IOException {
        assertThat(reject(VALID.replace("\"type\": \"merge\"", "\"type\": \"swap\"")))
                .isEqualTo(expected("actions[2].type: must be one of split, move, merge, moveToken, got \"swap\""));
    }

    @Test
    void missingActionField() throws IOException {
        assertThat(reject(VALID.replace("\"to\": \"rs-2\"", "\"destination\": \"rs-2\"")))
                .isEqualTo(expected("actions[1].to: required field is missing"));
    }

    @Test
    void negativePrediction() throws IOException {
        assertThat(reject(VALID.replace("\"cpuMaxOverMean\": 1.04", "\"cpuMaxOverMean\": -1.04")))
                .isEqualTo(expected("predicted.cpuMaxOverMean: must be a finite number >= 0, got -1.04"));
    }

    @Test
    void unknownRegion() throws IOException {
        assertThat(reject(VALID.replace("\"region\": \"r-1\"", "\"region\": \"r-7\"")))
                .isEqualTo(expected("actions[0].region: unknown region r-7"));
    }

    @Test
    void moveFromTheWrongNode() throws IOException {
        assertThat(reject(VALID.replace("\"from\": \"rs-1\"", "\"from\": \"rs-2\"")))
                .isEqualTo(expected("actions[1].from: region r-1.r is on rs-1, not rs-2"));
    }

    @Test
    void moveToUnknownNode() throws IOException {
        assertThat(reject(VALID.replace("\"to\": \"rs-2\"", "\"to\": \"rs-9\"")))
                .isEqualTo(expected("actions[1].to: unknown node rs-9"));
    }

    @Test
    void splitKeyOutsideTheRange() throws IOException {
        assertThat(reject(VALID.replace("\"splitKey\": \"40\"", "\"splitKey\": \"90\"")))
                .isEqualTo(expected("actions[0].splitKey: key 90 is not inside region r-1 [, 80)"));
    }

    @Test
    void truncatedPlan() throws IOException {
        assertThat(reject(VALID.substring(0, 120))).startsWith(expected("truncated JSON: unexpected end of input"));
    }

    @Test
    void emptyPlanFile() throws IOException {
        assertThat(reject("")).isEqualTo(expected("empty file"));
    }

    @Test
    void tokenMovesNeedTheRingTheyWereMadeFor() throws IOException {
        assertThat(reject(VALID.replace("{\"type\": \"merge\", \"regions\": [\"r-1.r\", \"r-2\"], \"merged\": \"r-m\", \"node\": \"rs-2\"}",
                "{\"type\": \"moveToken\", \"node\": \"rs-1\", \"fromToken\": \"8000000000000000\", \"toToken\": \"9000000000000000\"}")))
                .isEqualTo(snapshot + ": ring: the snapshot lists no tokens (a Cassandra sidecar snapshot is needed); "
                        + "the plan's moveToken actions need the ring they were made for");
    }
}
