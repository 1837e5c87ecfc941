package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of malformed snapshot is rejected whole: one line FILE: json.path: reason, exit code 2. */
class BadSnapshotTest {
    static final String VALID = """
            {"format": "libra.snapshot/v1", "store": "hbase", "capturedAt": "2026-11-22T08:00:00Z", "windowSeconds": 60,
             "nodes": [
               {"id": "rs-1", "cpuCores": 8, "cpuUsage": 4, "diskBytesPerSec": 1000},
               {"id": "rs-2", "cpuCores": 8, "cpuUsage": 2, "diskBytesPerSec": 500}],
             "regions": [
               {"id": "r-1", "table": "t", "startKey": "", "endKey": "80", "node": "rs-1", "sizeBytes": 100,
                "readOps": 10, "writeOps": 5, "readBytes": 1000, "writeBytes": 500,
                "keyHistogram": [{"endKey": "40", "readOps": 5, "writeOps": 2, "readBytes": 500, "writeBytes": 200},
                                 {"endKey": "80", "readOps": 5, "writeOps": 3, "readBytes": 500, "writeBytes": 300}]},
               {"id": "r-2", "table": "t", "startKey": "80", "endKey": "", "node": "rs-2", "sizeBytes": 100,
                "readOps": 1, "writeOps": 1, "readBytes": 100, "writeBytes": 100}]}
            """;

    @TempDir
    Path dir;

    private String reject(String content) throws IOException {
        Path file = dir.resolve("snapshot.json");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Cli.Result r = Cli.run("plan", "--snapshot", file.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        return r.err().strip();
    }

    private String expected(String pathAndReason) {
        return dir.resolve("snapshot.json") + ": " + pathAndReason;
    }

    @Test
    void validSnapshotIsAccepted() throws IOException {
        Path file = dir.resolve("snapshot.json");
        Files.writeString(file, VALID);
        assertThat(Cli.run("plan", "--snapshot", file.toString()).code()).isZero();
    }

    @Test
    void wrongFormat() throws IOException {
        assertThat(reject(VALID.replace("libra.snapshot/v1", "libra.plan/v1")))
                .isEqualTo(expected("format: must be \"libra.snapshot/v1\", got \"libra.plan/v1\""));
    }

    @Test
    void missingField() throws IOException {
        assertThat(reject(VALID.replace("\"windowSeconds\": 60,", "")))
                .isEqualTo(expected("windowSeconds: required field is missing"));
    }

    @Test
    void missingRegionField() throws IOException {
        assertThat(reject(VALID.replace("\"node\": \"rs-2\", ", "")))
                .isEqualTo(expected("regions[1].node: required field is missing"));
    }

    @Test
    void mistypedField() throws IOException {
        assertThat(reject(VALID.replace("\"readOps\": 10,", "\"readOps\": \"10\",")))
                .isEqualTo(expected("regions[0].readOps: must be a finite number >= 0, got \"10\""));
    }

    @Test
    void mistypedObject() throws IOException {
        assertThat(reject(VALID.replace("\"nodes\": [", "\"nodes\": [17, ")))
                .isEqualTo(expected("nodes[0]: must be a JSON object, got 17"));
    }

    @Test
    void negativeNumber() throws IOException {
        assertThat(reject(VALID.replace("\"readOps\": 1,", "\"readOps\": -3,")))
                .isEqualTo(expected("regions[1].readOps: must be a finite number >= 0, got -3"));
    }

    @Test
    void notANumber() throws IOException {
        assertThat(reject(VALID.replace("\"diskBytesPerSec\": 1000", "\"diskBytesPerSec\": NaN")))
                .isEqualTo(expected("nodes[0].diskBytesPerSec: must be a finite number >= 0, got NaN"));
    }

    @Test
    void infiniteNumber() throws IOException {
        assertThat(reject(VALID.replace("\"sizeBytes\": 100,", "\"sizeBytes\": Infinity,")))
                .isEqualTo(expected("regions[0].sizeBytes: must be a finite number >= 0, got Infinity"));
    }

    @Test
    void numberTooLargeForADouble() throws IOException {
        assertThat(reject(VALID.replace("\"writeBytes\": 100}", "\"writeBytes\": 1e400}")))
                .isEqualTo(expected("regions[1].writeBytes: must be a finite number >= 0, got Infinity"));
    }

    @Test
    void nonPositiveWindow() throws IOException {
        assertThat(reject(VALID.replace("\"windowSeconds\": 60", "\"windowSeconds\": 0")))
                .isEqualTo(expected("windowSeconds: must be a finite number > 0, got 0"));
    }

    @Test
    void unknownNode() throws IOException {
        assertThat(reject(VALID.replace("\"node\": \"rs-2\"", "\"node\": \"rs-9\"")))
                .isEqualTo(expected("regions[1].node: unknown node \"rs-9\""));
    }

    @Test
    void duplicateNodeId() throws IOException {
        assertThat(reject(VALID.replace("{\"id\": \"rs-2\"", "{\"id\": \"rs-1\"")))
                .isEqualTo(expected("nodes[1].id: duplicate id \"rs-1\" (also nodes[0])"));
    }

    @Test
    void duplicateRegionId() throws IOException {
        assertThat(reject(VALID.replace("{\"id\": \"r-2\"", "{\"id\": \"r-1\"")))
                .isEqualTo(expected("regions[1].id: duplicate id \"r-1\" (also regions[0])"));
    }

    @Test
    void overlappingRanges() throws IOException {
        assertThat(reject(VALID.replace("\"startKey\": \"80\"", "\"startKey\": \"70\"")))
                .isEqualTo(expected("regions[1]: key range [\"70\", \"\") overlaps regions[0] [\"\", \"80\") in table \"t\""));
    }

    @Test
    void unorderedRange() throws IOException {
        assertThat(reject(VALID.replace("\"startKey\": \"80\", \"endKey\": \"\"", "\"startKey\": \"90\", \"endKey\": \"85\"")))
                .isEqualTo(expected("regions[1].endKey: must be after startKey \"90\", got \"85\""));
    }

    @Test
    void unorderedHistogram() throws IOException {
        assertThat(reject(VALID.replace("{\"endKey\": \"40\"", "{\"endKey\": \"90\"")))
                .isEqualTo(expected("regions[0].keyHistogram[0].endKey: must be after \"\" and within the region, got \"90\""));
    }

    @Test
    void histogramNotClosingAtRegionEnd() throws IOException {
        assertThat(reject(VALID.replace("{\"endKey\": \"80\", \"readOps\": 5", "{\"endKey\": \"70\", \"readOps\": 5")))
                .isEqualTo(expected("regions[0].keyHistogram[1].endKey: the last bucket must close at the region's endKey \"80\", got \"70\""));
    }

    @Test
    void keyNotLowercaseHex() throws IOException {
        assertThat(reject(VALID.replace("\"endKey\": \"80\", \"node\"", "\"endKey\": \"8G\", \"node\"")))
                .isEqualTo(expected("regions[0].endKey: must be a lowercase hex string of whole bytes, got \"8G\""));
    }

    @Test
    void cpuAboveCores() throws IOException {
        assertThat(reject(VALID.replace("\"cpuUsage\": 4,", "\"cpuUsage\": 9.5,")))
                .isEqualTo(expected("nodes[0].cpuUsage: must be <= cpuCores (8), got 9.5"));
    }

    @Test
    void unknownStore() throws IOException {
        assertThat(reject(VALID.replace("\"hbase\"", "\"mongo\"")))
                .isEqualTo(expected("store: must be one of hbase, cassandra, generic, got \"mongo\""));
    }

    @Test
    void capacityOnSomeNodesOnly() throws IOException {
        assertThat(reject(VALID.replace("\"diskBytesPerSec\": 500}", "\"diskBytesPerSec\": 500, \"cpuCapacity\": 8, \"diskCapacityBytesPerSec\": 9}")))
                .isEqualTo(expected("nodes[1].cpuCapacity: capacities must be given on every node or on none"));
    }

    @Test
    void truncatedText() throws IOException {
        assertThat(reject(VALID.substring(0, 200)))
                .startsWith(expected("truncated JSON: unexpected end of input at line 4, column"));
    }

    @Test
    void nonJsonText() throws IOException {
        assertThat(reject("regions: [1, 2]\n"))
                .startsWith(expected("not valid JSON: Unrecognized token 'regions'"));
    }

    @Test
    void syntaxErrorNamesWhereItHappened() throws IOException {
        assertThat(reject(VALID.replace("\"readOps\": 10,", "\"readOps\": 10,,")))
                .startsWith(expected("regions[0].readOps: not valid JSON: Unexpected character (','"));
    }

    @Test
    void trailingGarbage() throws IOException {
        assertThat(reject(VALID + "]")).startsWith(expected("not valid JSON: Unexpected close marker ']'"));
    }

    @Test
    void duplicateJsonKey() throws IOException {
        assertThat(reject(VALID.replace("\"store\": \"hbase\",", "\"store\": \"hbase\", \"store\": \"hbase\",")))
                .startsWith(expected("store: not valid JSON: Duplicate field 'store'"));
    }

    @Test
    void emptyFile() throws IOException {
        assertThat(reject("")).isEqualTo(expected("empty file"));
    }

    @Test
    void blankFile() throws IOException {
        assertThat(reject("  \n\t\n")).isEqualTo(expected("empty file"));
    }

    @Test
    void notAnObject() throws IOException {
        assertThat(reject("[1, 2, 3]")).isEqualTo(expected("must be a JSON object, got an array"));
    }

    @Test
    void emptyNodeList() throws IOException {
        String noNodes = VALID.substring(0, VALID.indexOf("\"nodes\"")) + "\"nodes\": [], \"regions\": []}";
        assertThat(reject(noNodes)).isEqualTo(expected("nodes: must not be empty"));
    }

    @Test
    void missingFile() {
        Path file = dir.resolve("absent.json");
        Cli.Result r = Cli.run("plan", "--snapshot", file.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(file + ": no such file");
    }
}
