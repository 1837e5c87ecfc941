package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads and writes {@code libra.snapshot/v1} (shared/formats.md). Reading validates the whole
 * document before building anything, so a faulty file is rejected whole with one
 * {@link FormatException} naming the field; unknown fields are ignored.
 */
public final class SnapshotCodec {
    public static final String FORMAT = "libra.snapshot/v1";
    static final Set<String> STORES = Set.of("hbase", "cassandra", "generic");

    private SnapshotCodec() {
    }

    public static ClusterSnapshot read(String sourceName, byte[] bytes) {
        return read(sourceName, bytes, true);
    }

    /**
     * Reads an earlier window of a cluster for the cost-model fit, which needs node totals and
     * region counters only: key histograms are skipped while parsing (they are most of a large
     * snapshot's tree) and the window's regions carry none.
     */
    public static ClusterSnapshot readWindow(String sourceName, byte[] bytes) {
        return read(sourceName, bytes, false);
    }

    /**
     * Regions are read plainly first; a document with any fault, or a region in a shape the plain
     * reader leaves to the tree reader, is read again with the tree reader, which names the fault.
     */
    private static ClusterSnapshot read(String sourceName, byte[] bytes, boolean histograms) {
        try {
            return read(sourceName, bytes, histograms, true);
        } catch (PlainRegion.NotPlain | FormatException e) {
            return read(sourceName, bytes, histograms, false);
        }
    }

    private static ClusterSnapshot read(String sourceName, byte[] bytes, boolean histograms, boolean plain) {
        JsonFields f = new JsonFields(sourceName);
        return snapshot(f, f.parse(bytes, p -> SnapshotStream.read(f, p, histograms, plain)));
    }

    /**
     * Reads a snapshot as it streams in, without holding the file's bytes (a large snapshot's are
     * hundreds of MB, each page of them a fault to the OS), when nothing in it is faulty and every
     * region is plain; else empty, and the caller reads the whole file with {@link #read(String, byte[])},
     * which names the fault. {@code in} is read to its end and left open.
     */
    public static Optional<ClusterSnapshot> stream(String sourceName, InputStream in) {
        return stream(sourceName, in, true);
    }

    /** As {@link #stream}, for an earlier window as {@link #readWindow} reads it. */
    public static Optional<ClusterSnapshot> streamWindow(String sourceName, InputStream in) {
        return stream(sourceName, in, false);
    }

    private static Optional<ClusterSnapshot> stream(String sourceName, InputStream in, boolean histograms) {
        JsonFields f = new JsonFields(sourceName);
        try (JsonParser p = JsonFields.MAPPER.createParser(in)) {
            p.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
            SnapshotStream s = SnapshotStream.read(f, p, histograms, true);
            return p.nextToken() == null ? Optional.of(snapshot(f, s)) : Optional.empty();
        } catch (IOException | FormatException | PlainRegion.NotPlain e) {
            return Optional.empty();
        }
    }

    private static ClusterSnapshot snapshot(JsonFields f, SnapshotStream s) {
        return read(f, s.root, nodes -> {
            if (s.regionFault != null) {
                throw s.regionFault;
            }
            return s.regionsStreamed ? SnapshotRegions.checked(f, s.regions, nodes)
                    : SnapshotRegions.read(f, f.array(s.root, "", SnapshotStream.REGIONS), nodes);
        });
    }

    /** Reads an already parsed document (for readers that embed a snapshot). */
    public static ClusterSnapshot read(JsonFields f, ObjectNode root) {
        return read(f, root, nodes -> SnapshotRegions.read(f, f.array(root, "", "regions"), nodes));
    }

    /** The top-level fields from {@code root}, in the order they are checked; the regions from {@code regions}. */
    private static ClusterSnapshot read(JsonFields f, ObjectNode root, Function<Set<String>, List<Region>> regionsOf) {
        checkFormat(f, root, FORMAT);
        String store = f.string(root, "", "store");
        if (!STORES.contains(store)) {
            throw f.error("store", "must be one of hbase, cassandra, generic, got \"" + store + "\"");
        }
        Instant capturedAt = instant(f, root);
        double window = f.positive(root, "", "windowSeconds");
        List<Node> nodes = readNodes(f, root);
        Map<String, Node> byId = new LinkedHashMap<>();
        nodes.forEach(n -> byId.put(n.id(), n));
        List<Region> regions = regionsOf.apply(byId.keySet());
        int replication = f.optionalInt(root, "", "replication", 1, 0);
        Map<String, List<String>> ring = readRing(f, root, byId.keySet());
        try {
            return new ClusterSnapshot(store, capturedAt, window, nodes, regions, replication, ring);
        } catch (IllegalArgumentException e) {
            throw f.error("", e.getMessage());
        }
    }

    static void checkFormat(JsonFields f, ObjectNode root, String expected) {
        String format = f.string(root, "", "format");
        if (!format.equals(expected)) {
            throw f.error("format", "must be \"" + expected + "\", got \"" + format + "\"");
        }
    }

    private static Instant instant(JsonFields f, ObjectNode root) {
        if (!f.has(root, "capturedAt")) {
            return Instant.EPOCH;
        }
        String s = f.string(root, "", "capturedAt");
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw f.error("capturedAt", "must be an ISO-8601 instant like 2026-11-22T08:00:00Z, got \"" + s + "\"");
        }
    }

    private static List<Node> readNodes(JsonFields f, ObjectNode root) {
        ArrayNode array = f.array(root, "", "nodes");
        if (array.isEmpty()) {
            throw f.error("nodes", "must not be empty");
        }
        List<Node> nodes = new ArrayList<>(array.size());
        Map<String, Integer> seen = new LinkedHashMap<>();
        int withCapacity = 0;
        for (int i = 0; i < array.size(); i++) {
            String p = JsonFields.at("nodes", i);
            Node n = readNode(f, f.object(array.get(i), p), p);
            Integer first = seen.putIfAbsent(n.id(), i);
            if (first != null) {
                throw f.error(p + ".id", "duplicate id \"" + n.id() + "\" (also nodes[" + first + "])");
            }
            withCapacity += n.capacity() != null ? 1 : 0;
            if (withCapacity > 0 && withCapacity != i + 1) {
                throw f.error(n.capacity() != null ? p + ".cpuCapacity" : p,
                        "capacities must be given on every node or on none");
            }
            nodes.add(n);
        }
        return nodes;
    }

    private static Node readNode(JsonFields f, ObjectNode o, String p) {
        String id = f.id(o, p, "id");
        double cores = f.positive(o, p, "cpuCores");
        double usage = f.nonNegative(o, p, "cpuUsage");
        if (usage > cores) {
            throw f.error(p + ".cpuUsage", "must be <= cpuCores (" + JsonFields.formatDouble(cores) + "), got "
                    + JsonFields.describe(o.get("cpuUsage")));
        }
        double disk = f.nonNegative(o, p, "diskBytesPerSec");
        boolean hasCpu = f.has(o, "cpuCapacity");
        boolean hasDisk = f.has(o, "diskCapacityBytesPerSec");
        Capacity capacity = null;
        if (hasCpu || hasDisk) {
            if (!hasCpu || !hasDisk) {
                throw f.error(p + (hasCpu ? ".diskCapacityBytesPerSec" : ".cpuCapacity"),
                        "required with " + (hasCpu ? "cpuCapacity" : "diskCapacityBytesPerSec"));
            }
            capacity = new Capacity(f.positive(o, p, "cpuCapacity"), f.positive(o, p, "diskCapacityBytesPerSec"));
        }
        return new Node(id, cores, usage, disk, capacity);
    }

    private static Map<String, List<String>> readRing(JsonFields f, ObjectNode root, Set<String> nodes) {
        if (!f.has(root, "ring")) {
            return Map.of();
        }
        ObjectNode ring = f.object(root, "", "ring");
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : ring.properties()) {
            String p = "ring." + e.getKey();
            if (!nodes.contains(e.getKey())) {
                throw f.error(p, "unknown node \"" + e.getKey() + "\"");
            }
            if (!e.getValue().isArray()) {
                throw f.error(p, "must be an array of tokens, got " + JsonFields.describe(e.getValue()));
            }
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < e.getValue().size(); i++) {
                JsonNode t = e.getValue().get(i);
                if (!t.isTextual() || t.textValue().isEmpty()) {
                    throw f.error(JsonFields.at(p, i), "must be a non-empty string token, got " + JsonFields.describe(t));
                }
                tokens.add(t.textValue());
            }
            out.put(e.getKey(), tokens);
        }
        return out;
    }

    /** The snapshot as a pretty-printed {@code libra.snapshot/v1} document. */
    public static String write(ClusterSnapshot s) {
        try {
            return JsonFields.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(toTree(s)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ObjectNode toTree(ClusterSnapshot s) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode root = json.objectNode();
        root.put("format", FORMAT);
        root.put("store", s.store());
        root.put("capturedAt", s.capturedAt().toString());
        num(root, "windowSeconds", s.windowSeconds());
        if (s.replication() > 0) {
            root.put("replication", s.replication());
        }
        if (!s.ring().isEmpty()) {
            ObjectNode ring = root.putObject("ring");
            s.nodes().stream().filter(n -> s.ring().containsKey(n.id()))
                    .forEach(n -> s.ring().get(n.id()).forEach(ring.putArray(n.id())::add));
        }
        ArrayNode nodes = root.putArray("nodes");
        for (Node n : s.nodes()) {
            ObjectNode o = nodes.addObject();
            o.put("id", n.id());
            num(o, "cpuCores", n.cpuCores());
            num(o, "cpuUsage", n.cpuUsage());
            num(o, "diskBytesPerSec", n.diskBytesPerSec());
            if (n.capacity() != null) {
                num(o, "cpuCapacity", n.capacity().cpu());
                num(o, "diskCapacityBytesPerSec", n.capacity().diskBytesPerSec());
            }
        }
        ArrayNode regions = root.putArray("regions");
        s.regions().forEach(r -> writeRegion(regions.addObject(), r));
        return root;
    }

    private static void writeRegion(ObjectNode o, Region r) {
        o.put("id", r.id());
        o.put("table", r.table());
        if (r.rangeId() != null) {
            o.put("range", r.rangeId());
        }
        o.put("startKey", r.range().startKey());
        o.put("endKey", r.range().endKey());
        o.put("node", r.node());
        num(o, "sizeBytes", r.sizeBytes());
        counters(o, r.counters());
        if (r.measured().has(Dimension.CPU)) {
            o.put("measuredCpu", r.measured().cpu());
        }
        if (r.measured().has(Dimension.DISK)) {
            num(o, "measuredDiskBytesPerSec", r.measured().diskBytesPerSec());
        }
        if (!r.histogram().isEmpty()) {
            ArrayNode h = o.putArray("keyHistogram");
            for (KeyBucket b : r.histogram()) {
                ObjectNode bo = h.addObject();
                bo.put("endKey", b.endKey());
                counters(bo, b.counters());
            }
        }
    }

    private static void counters(ObjectNode o, RegionCounters c) {
        num(o, "readOps", c.readOps());
        num(o, "writeOps", c.writeOps());
        num(o, "readBytes", c.readBytes());
        num(o, "writeBytes", c.writeBytes());
    }

    /** Whole numbers are written without a fraction, so generated files read like hand-written ones. */
    static void num(ObjectNode o, String field, double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            o.put(field, (long) v);
        } else {
            o.put(field, v);
        }
    }

    /** Lowercase hex SHA-256 of a file's bytes: how a plan names the snapshot it was made from. */
    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    /** A new SHA-256 digest, for a file digested as it streams in. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
