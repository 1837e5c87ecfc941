package io.libra.core.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {
    static final Path EXAMPLES = Path.of("..", "..", "shared", "examples");

    static ClusterSnapshot read(Path file) throws java.io.IOException {
        return SnapshotCodec.read(file.toString(), java.nio.file.Files.readAllBytes(file));
    }

    static Path example(String name) {
        Path p = EXAMPLES.resolve(name);
        return p.toFile().exists() ? p : Path.of("/work/shared/examples").resolve(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mixgraph-8nodes.snapshot.json", "heterogeneous-6nodes.snapshot.json"})
    void examplesRoundTrip(String name) throws java.io.IOException {
        ClusterSnapshot read = read(example(name));
        String written = SnapshotCodec.write(read);
        ClusterSnapshot again = SnapshotCodec.read("again.json", written.getBytes(StandardCharsets.UTF_8));
        assertThat(again).isEqualTo(read);
        assertThat(read.regions()).isNotEmpty();
        assertThat(read.regions()).allSatisfy(r -> assertThat(r.histogram()).isNotEmpty());
    }

    /** Regions read straight from the parser equal those the tree reader builds (with histograms, range ids, measured load). */
    @ParameterizedTest
    @ValueSource(strings = {"mixgraph-8nodes.snapshot.json", "heterogeneous-6nodes.snapshot.json"})
    void plainRegionsEqualTreeRegions(String name) throws java.io.IOException {
        byte[] bytes = java.nio.file.Files.readAllBytes(example(name));
        String measured = new String(bytes, StandardCharsets.UTF_8)
                .replaceFirst("\"sizeBytes\"", "\"range\": \"x\", \"measuredCpu\": 0.25, \"measuredDiskBytesPerSec\": 7, \"sizeBytes\"");
        for (byte[] doc : List.of(bytes, measured.getBytes(StandardCharsets.UTF_8))) {
            JsonFields f = new JsonFields("s.json");
            SnapshotStream plain = f.parse(doc, p -> SnapshotStream.read(f, p, true, true));
            assertThat(plain.regions).isEqualTo(SnapshotCodec.read(f, f.parse(doc)).regions());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mixgraph-8nodes.snapshot.json", "heterogeneous-6nodes.snapshot.json"})
    void aStreamedSnapshotIsTheOneRead(String name) throws java.io.IOException {
        byte[] bytes = java.nio.file.Files.readAllBytes(example(name));
        java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(bytes);
        assertThat(SnapshotCodec.stream("s.json", in)).contains(SnapshotCodec.read("s.json", bytes));
        assertThat(in.available()).isZero();
        assertThat(SnapshotCodec.streamWindow("w.json", new java.io.ByteArrayInputStream(bytes)))
                .contains(SnapshotCodec.readWindow("w.json", bytes));
    }

    /** Faults, and regions the plain reader leaves to the tree reader, stream to nothing: the caller reads the bytes, which name the fault. */
    @ParameterizedTest
    @ValueSource(strings = {"", "{", "[]", "{} {}", "\"sizeBytes\":2|\"sizeBytes\":-2", "\"sizeBytes\":2|\"sizeBytes\":2,\"x\":1,\"x\":1",
            "\"windowSeconds\":60|\"windowSeconds\":0", "\"node\":\"a\",\"sizeBytes\":2|\"node\":\"b\",\"sizeBytes\":2",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"range\":null"})
    void aFaultStreamsToNothing(String change) {
        String[] fromTo = change.split("\\|");
        String json = fromTo.length == 2 ? TWO_REGIONS.replace(fromTo[0], fromTo[1]) : change;
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThat(SnapshotCodec.stream("s.json", new java.io.ByteArrayInputStream(bytes))).isEmpty();
        assertThat(SnapshotCodec.streamWindow("w.json", new java.io.ByteArrayInputStream(bytes))).isEmpty();
    }

    @Test
    void heterogeneousExampleCarriesCapacities() throws java.io.IOException {
        ClusterSnapshot s = read(example("heterogeneous-6nodes.snapshot.json"));
        assertThat(s.hasCapacities()).isTrue();
        assertThat(s.nodes()).hasSize(6);
    }

    @Test
    void cassandraFieldsRoundTrip() {
        Node n1 = new Node("n1", 4, 1, 100, new Capacity(4, 1000));
        Node n2 = new Node("n2", 4, 2, 200, new Capacity(4, 1000));
        RegionCounters c = new RegionCounters(1, 2, 3, 4);
        List<Region> regions = List.of(
                new Region("t0@n1", "ks.t", new KeyRange("", "80"), "n1", 10, c, List.of(), "t0"),
                new Region("t0@n2", "ks.t", new KeyRange("", "80"), "n2", 10, c, List.of(), "t0"),
                new Region("t1@n2", "ks.t", new KeyRange("80", ""), "n2", 10, c, List.of(), "t1"),
                new Region("t1@n1", "ks.t", new KeyRange("80", ""), "n1", 10, c, List.of(), "t1"));
        ClusterSnapshot s = new ClusterSnapshot("cassandra", Instant.parse("2026-11-22T08:00:00Z"), 30,
                List.of(n1, n2), regions, 2, Map.of("n1", List.of("-9223372036854775808"), "n2", List.of("0")));
        ClusterSnapshot again = SnapshotCodec.read("c.json", SnapshotCodec.write(s).getBytes(StandardCharsets.UTF_8));
        assertThat(again).isEqualTo(s);
        assertThat(again.replication()).isEqualTo(2);
        assertThat(again.regions().get(0).rangeId()).isEqualTo("t0");
    }

    @Test
    void cassandraWrapRangeInTwoPiecesIsAccepted() {
        Node n1 = new Node("n1", 4, 1, 100);
        Node n2 = new Node("n2", 4, 1, 100);
        RegionCounters c = new RegionCounters(1, 1, 0, 0);
        List<Region> regions = List.of(
                new Region("w.a@n1", "ks.t", new KeyRange("c0", ""), "n1", 5, c, List.of(), "wrap"),
                new Region("w.b@n1", "ks.t", new KeyRange("", "40"), "n1", 5, c, List.of(), "wrap"),
                new Region("w.a@n2", "ks.t", new KeyRange("c0", ""), "n2", 5, c, List.of(), "wrap"),
                new Region("w.b@n2", "ks.t", new KeyRange("", "40"), "n2", 5, c, List.of(), "wrap"),
                new Region("m@n1", "ks.t", new KeyRange("40", "c0"), "n1", 5, c, List.of(), "mid"),
                new Region("m@n2", "ks.t", new KeyRange("40", "c0"), "n2", 5, c, List.of(), "mid"));
        ClusterSnapshot s = new ClusterSnapshot("cassandra", Instant.EPOCH, 10, List.of(n1, n2), regions, 2, Map.of());
        assertThat(SnapshotCodec.read("c.json", SnapshotCodec.write(s).getBytes(StandardCharsets.UTF_8))).isEqualTo(s);
    }

    @Test
    void twoReplicasOfOnePieceOnOneNodeAreRejected() {
        Node n1 = new Node("n1", 4, 1, 100);
        RegionCounters c = new RegionCounters(1, 1, 0, 0);
        ClusterSnapshot s = new ClusterSnapshot("cassandra", Instant.EPOCH, 10, List.of(n1), List.of(
                new Region("a", "ks.t", new KeyRange("", "40"), "n1", 5, c, List.of(), "r0"),
                new Region("b", "ks.t", new KeyRange("", "40"), "n1", 5, c, List.of(), "r0")), 1, Map.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> SnapshotCodec.read("c.json", SnapshotCodec.write(s).getBytes(StandardCharsets.UTF_8)))
                .hasMessage("c.json: regions[1].node: range \"r0\" [\"\", \"40\") already has a replica on \"n1\" (regions[0])");
    }

    @Test
    void replicasThatDisagreeOnTheirKeysOverlap() {
        Node n1 = new Node("n1", 4, 1, 100);
        Node n2 = new Node("n2", 4, 1, 100);
        RegionCounters c = new RegionCounters(1, 1, 0, 0);
        ClusterSnapshot s = new ClusterSnapshot("cassandra", Instant.EPOCH, 10, List.of(n1, n2), List.of(
                new Region("a", "ks.t", new KeyRange("", "40"), "n1", 5, c, List.of(), "r0"),
                new Region("b", "ks.t", new KeyRange("", "50"), "n2", 5, c, List.of(), "r0")), 2, Map.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> SnapshotCodec.read("c.json", SnapshotCodec.write(s).getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FormatException.class).hasMessageContaining("overlaps regions[0]");
    }

    @Test
    void unknownFieldsAreIgnored() {
        String json = """
                {"format": "libra.snapshot/v1", "store": "generic", "windowSeconds": 10, "extra": {"x": [1]},
                 "nodes": [{"id": "a", "cpuCores": 2, "cpuUsage": 1, "diskBytesPerSec": 5, "rack": "r1"}],
                 "regions": [{"id": "r", "table": "t", "startKey": "", "endKey": "", "node": "a", "sizeBytes": 1,
                   "readOps": 1, "writeOps": 0, "readBytes": 1, "writeBytes": 0, "color": "blue"}]}
                """;
        ClusterSnapshot s = SnapshotCodec.read("x.json", json.getBytes(StandardCharsets.UTF_8));
        assertThat(s.regions()).hasSize(1);
        assertThat(s.capturedAt()).isEqualTo(Instant.EPOCH);
    }

    @Test
    void sha256IsLowercaseHex() {
        assertThat(SnapshotCodec.sha256("abc".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mixgraph-8nodes.snapshot.json", "heterogeneous-6nodes.snapshot.json"})
    void anEarlierWindowIsTheSnapshotWithoutHistograms(String name) throws java.io.IOException {
        byte[] bytes = java.nio.file.Files.readAllBytes(example(name));
        ClusterSnapshot full = SnapshotCodec.read("now.json", bytes);
        ClusterSnapshot window = SnapshotCodec.readWindow("w1.json", bytes);
        assertThat(window.regions()).allSatisfy(r -> assertThat(r.histogram()).isEmpty());
        assertThat(window.nodes()).isEqualTo(full.nodes());
        assertThat(window.regions()).extracting(Region::id, Region::node, Region::counters, Region::range)
                .isEqualTo(full.regions().stream().map(r -> org.assertj.core.groups.Tuple.tuple(
                        r.id(), r.node(), r.counters(), r.range())).toList());
    }

    static final String TWO_REGIONS = """
            {"format":"libra.snapshot/v1","store":"hbase","windowSeconds":60,
             "nodes":[{"id":"a","cpuCores":4,"cpuUsage":1,"diskBytesPerSec":10}],
             "regions":[
              {"id":"r1","table":"t","startKey":"","endKey":"80","node":"a","sizeBytes":1,
               "readOps":1,"writeOps":1,"readBytes":1,"writeBytes":1,
               "keyHistogram":[{"endKey":"80","readOps":1,"writeOps":1,"readBytes":1,"writeBytes":1}]},
              {"id":"r2","table":"t","startKey":"80","endKey":"","node":"a","sizeBytes":2,
               "readOps":1,"writeOps":1,"readBytes":1,"writeBytes":1}]}
            """;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRegionFaultNamesItsFieldWithOrWithoutHistograms(boolean window) {
        String bad = TWO_REGIONS.replace("\"id\":\"r2\",\"table\":\"t\"", "\"id\":\"r2\",\"table\":\"t\",\"table\":\"u\"");
        assertThat(fault(bad, window)).startsWith("regions[1].table: not valid JSON: Duplicate field 'table'");
        assertThat(fault(TWO_REGIONS.replace("\"node\":\"a\",\"sizeBytes\":2", "\"node\":\"b\",\"sizeBytes\":2"), window))
                .isEqualTo("regions[1].node: unknown node \"b\"");
        assertThat(fault(TWO_REGIONS.replace("\"id\":\"r2\"", "\"id\":\"r1\""), window))
                .isEqualTo("regions[1].id: duplicate id \"r1\" (also regions[0])");
    }

    /** Each region fault, read as an earlier window (no tree per region) and as a snapshot, is named and worded alike. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "\"id\":\"r2\"|\"id\":\"\"",
            "\"id\":\"r2\"|\"id\":7",
            "\"id\":\"r2\"|\"id\":null",
            "\"id\":\"r2\",|",
            "\"table\":\"t\",\"startKey\":\"80\"|\"table\":[1],\"startKey\":\"80\"",
            "\"startKey\":\"80\"|\"startKey\":\"8\"",
            "\"startKey\":\"80\"|\"startKey\":\"XY\"",
            "\"startKey\":\"80\",\"endKey\":\"\"|\"startKey\":\"80\",\"endKey\":\"70\"",
            "\"node\":\"a\",\"sizeBytes\":2|\"node\":\"\",\"sizeBytes\":2",
            "\"sizeBytes\":2|\"sizeBytes\":-2",
            "\"sizeBytes\":2|\"sizeBytes\":\"2\"",
            "\"sizeBytes\":2,|",
            "\"sizeBytes\":2|\"sizeBytes\":NaN",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"range\":\"\"",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"measuredCpu\":-1",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"measuredDiskBytesPerSec\":true",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"sizeBytes\":3",
            "\"sizeBytes\":2|\"sizeBytes\":2,\"extra\":1,\"extra\":2",
            "\"readOps\":1,\"writeOps\":1,\"readBytes\":1,\"writeBytes\":1}]}|\"readOps\":1,\"writeOps\":1,\"readBytes\":1}]}"})
    void aWindowNamesEveryRegionFaultAsASnapshotDoes(String from, String to) {
        int last = TWO_REGIONS.lastIndexOf(from);
        String bad = TWO_REGIONS.substring(0, last) + (to == null ? "" : to) + TWO_REGIONS.substring(last + from.length());
        String window = fault(bad, true);
        assertThat(window).startsWith("regions[1].");
        assertThat(window).isEqualTo(fault(bad, false));
    }

    @Test
    void aWindowKeepsRangeIdsAndMeasuredLoad() {
        String json = TWO_REGIONS.replace("\"sizeBytes\":2,", "\"sizeBytes\":2,\"range\":\"r\",\"measuredCpu\":0.5,\"note\":[1],");
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Region full = SnapshotCodec.read("s.json", bytes).regions().get(1);
        Region window = SnapshotCodec.readWindow("w.json", bytes).regions().get(1);
        assertThat(window).isEqualTo(full);
        assertThat(window.rangeId()).isEqualTo("r");
        assertThat(window.measured().cpu()).isEqualTo(0.5);
    }

    @Test
    void aTopLevelFaultIsReportedBeforeARegionFault() {
        String bad = TWO_REGIONS.replace("\"sizeBytes\":1,", "\"sizeBytes\":-1,");
        assertThat(fault(bad, false)).startsWith("regions[0].sizeBytes:");
        assertThat(fault(bad.replace("\"windowSeconds\":60", "\"windowSeconds\":0"), false)).startsWith("windowSeconds:");
        assertThat(fault(bad.replace("libra.snapshot/v1", "libra.plan/v1"), true)).startsWith("format:");
    }

    @Test
    void twoRegionsArraysAreADuplicateField() {
        String twice = TWO_REGIONS.replace("\"windowSeconds\":60,", "\"windowSeconds\":60,\"regions\":[],");
        assertThat(fault(twice, true)).startsWith("regions: not valid JSON: Duplicate field 'regions'");
    }

    private static String fault(String json, boolean window) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        try {
            if (window) {
                SnapshotCodec.readWindow("w.json", bytes);
            } else {
                SnapshotCodec.read("s.json", bytes);
            }
        } catch (FormatException e) {
            return e.jsonPath() + ": " + e.reason();
        }
        throw new AssertionError("no fault reported in " + json);
    }
}
