package io.libra.core.format;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the {@code regions} array of a snapshot and checks ids, node references and key ranges. */
final class SnapshotRegions {
    private SnapshotRegions() {
    }

    static List<Region> read(JsonFields f, ArrayNode array, Set<String> nodes) {
        List<Region> regions = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String p = JsonFields.at("regions", i);
            regions.add(readRegion(f, f.object(array.get(i), p), p));
        }
        return checked(f, regions, nodes);
    }

    /** Ids are unique, nodes are known, and key ranges do not overlap. */
    static List<Region> checked(JsonFields f, List<Region> regions, Set<String> nodes) {
        Map<String, Integer> ids = new HashMap<>(regions.size() * 2);
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            Integer first = ids.putIfAbsent(r.id(), i);
            if (first != null) {
                throw f.error(JsonFields.at("regions", i) + ".id", "duplicate id \"" + r.id() + "\" (also regions[" + first + "])");
            }
            if (!nodes.contains(r.node())) {
                throw f.error(JsonFields.at("regions", i) + ".node", "unknown node \"" + r.node() + "\"");
            }
        }
        checkRanges(f, regions);
        return regions;
    }

    static Region readRegion(JsonFields f, ObjectNode o, String p) {
        String id = f.id(o, p, "id");
        String table = f.id(o, p, "table");
        String rangeId = f.has(o, "range") ? f.id(o, p, "range") : null;
        String start = f.key(o, p, "startKey");
        String end = f.key(o, p, "endKey");
        if (!end.isEmpty() && start.compareTo(end) >= 0) {
            throw f.error(p + ".endKey", "must be after startKey \"" + start + "\", got \"" + end + "\"");
        }
        String node = f.id(o, p, "node");
        double size = f.nonNegative(o, p, "sizeBytes");
        RegionCounters counters = counters(f, o, p);
        KeyRange range = new KeyRange(start, end);
        List<KeyBucket> histogram = f.has(o, "keyHistogram") ? histogram(f, o, p, range) : List.of();
        return new Region(id, table, range, node, size, counters, histogram, rangeId, measured(f, o, p));
    }

    private static MeasuredLoad measured(JsonFields f, ObjectNode o, String p) {
        double cpu = f.has(o, "measuredCpu") ? f.nonNegative(o, p, "measuredCpu") : Double.NaN;
        double disk = f.has(o, "measuredDiskBytesPerSec") ? f.nonNegative(o, p, "measuredDiskBytesPerSec") : Double.NaN;
        return new MeasuredLoad(cpu, disk);
    }

    static RegionCounters counters(JsonFields f, ObjectNode o, String p) {
        return new RegionCounters(f.nonNegative(o, p, "readOps"), f.nonNegative(o, p, "writeOps"),
                f.nonNegative(o, p, "readBytes"), f.nonNegative(o, p, "writeBytes"));
    }

    /** Buckets close at increasing keys inside the region, the last one at the region's end. */
    private static List<KeyBucket> histogram(JsonFields f, ObjectNode o, String p, KeyRange range) {
        ArrayNode array = f.array(o, p, "keyHistogram");
        List<KeyBucket> buckets = new ArrayList<>(array.size());
        String previous = range.startKey();
        for (int k = 0; k < array.size(); k++) {
            String bp = JsonFields.at(p + ".keyHistogram", k);
            ObjectNode b = f.object(array.get(k), bp);
            String end = f.key(b, bp, "endKey");
            boolean last = k == array.size() - 1;
            if (last && !end.equals(range.endKey())) {
                throw f.error(bp + ".endKey", "the last bucket must close at the region's endKey \""
                        + range.endKey() + "\", got \"" + end + "\"");
            }
            boolean afterPrevious = end.isEmpty() ? last : end.compareTo(previous) > 0;
            boolean inside = end.isEmpty() || range.endKey().isEmpty() || end.compareTo(range.endKey()) <= 0;
            if (!afterPrevious || !inside) {
                throw f.error(bp + ".endKey", "must be after \"" + previous + "\" and within the region, got \"" + end + "\"");
            }
            buckets.add(new KeyBucket(end, counters(f, b, bp)));
            previous = end;
        }
        return buckets;
    }

    /**
     * Within a table, ranges must not overlap. Cassandra replicas of one piece of a sub-range (same
     * {@code range} id and keys) count once and must sit on distinct nodes; a sub-range may come in
     * several pieces (the one holding the ring's wrap is cut in two).
     */
    private static void checkRanges(JsonFields f, List<Region> regions) {
        Map<String, List<Integer>> byTable = new HashMap<>();
        Map<String, Integer> pieces = new HashMap<>();
        Map<String, Integer> replicaNode = new HashMap<>();
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            if (r.rangeId() != null) {
                String piece = String.join("\u0000", r.table(), r.rangeId(), r.range().startKey(), r.range().endKey());
                Integer sameNode = replicaNode.putIfAbsent(piece + "\u0000" + r.node(), i);
                if (sameNode != null) {
                    throw f.error(JsonFields.at("regions", i) + ".node", "range \"" + r.rangeId() + "\" "
                            + show(r.range()) + " already has a replica on \"" + r.node() + "\" (regions[" + sameNode + "])");
                }
                if (pieces.putIfAbsent(piece, i) != null) {
                    continue;
                }
            }
            byTable.computeIfAbsent(r.table(), t -> new ArrayList<>()).add(i);
        }
        Comparator<Integer> byStart = Comparator.comparing(i -> regions.get(i).range().startKey());
        for (List<Integer> table : byTable.values()) {
            table.sort(byStart.thenComparing(Comparator.naturalOrder()));
            for (int k = 1; k < table.size(); k++) {
                KeyRange a = regions.get(table.get(k - 1)).range();
                KeyRange b = regions.get(table.get(k)).range();
                if (a.endKey().isEmpty() || a.endKey().compareTo(b.startKey()) > 0) {
                    int later = Math.max(table.get(k - 1), table.get(k));
                    int earlier = Math.min(table.get(k - 1), table.get(k));
                    throw f.error(JsonFields.at("regions", later), "key range " + show(regions.get(later).range())
                            + " overlaps regions[" + earlier + "] " + show(regions.get(earlier).range())
                            + " in table \"" + regions.get(later).table() + "\"");
                }
            }
        }
    }

    private static String show(KeyRange r) {
        return "[\"" + r.startKey() + "\", \"" + r.endKey() + "\")";
    }
}
