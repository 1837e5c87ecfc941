package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Keys;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A region read straight from the parser, without a tree: a map per region object was most of
 * the time spent reading a large snapshot. Only a valid region in the plain shape Libra writes
 * (each field once, of its type) is read here; anything else throws {@link NotPlain} and the
 * document is read again with the tree reader, whose checks name the fault. Faults are thus
 * reported word for word as before, and the checks here only need to accept what it accepts.
 */
final class PlainRegion {
    private static final int ID = 1;
    private static final int TABLE = 1 << 1;
    private static final int RANGE = 1 << 2;
    private static final int START = 1 << 3;
    private static final int END = 1 << 4;
    private static final int NODE = 1 << 5;
    private static final int SIZE = 1 << 6;
    private static final int CPU = 1 << 7;
    private static final int DISK = 1 << 8;
    private static final int HISTOGRAM = 1 << 9;
    private static final int REQUIRED = ID | TABLE | START | END | NODE | SIZE;

    private final boolean histograms;
    private final Shared shared;
    private final PlainCounters counters = new PlainCounters();
    private int seen;
    private Set<String> unknown;
    private String id;
    private String table;
    private String rangeId;
    private String start;
    private String end;
    private String node;
    private double size;
    private double cpu = Double.NaN;
    private double disk = Double.NaN;
    private List<KeyBucket> buckets = List.of();

    private PlainRegion(boolean histograms, Shared shared) {
        this.histograms = histograms;
        this.shared = shared;
    }

    /**
     * One copy of each node and table id, and of a key that closes one region and opens the next,
     * per document: a large snapshot repeats them a hundred thousand times, and every copy kept is
     * copied again by each young collection while the windows are read.
     */
    static final class Shared {
        private final Map<String, String> ids = new HashMap<>();
        private String lastEnd = "";

        String id(String s) {
            return ids.computeIfAbsent(s, k -> k);
        }

        String start(String s) {
            return s.equals(lastEnd) ? lastEnd : s;
        }

        String end(String s) {
            lastEnd = s;
            return s;
        }
    }

    /** Not a valid region in the plain shape; thrown without a stack trace, as it is caught and handled. */
    static final class NotPlain extends RuntimeException {
        private static final NotPlain INSTANCE = new NotPlain();

        private NotPlain() {
            super("not a plain region", null, false, false);
        }
    }

    static void plain(boolean ok) {
        if (!ok) {
            throw NotPlain.INSTANCE;
        }
    }

    /** The region whose object starts at the parser's current token; with {@code histograms} false its key histogram is skipped. */
    static Region read(JsonParser p, boolean histograms, Shared shared) throws IOException {
        plain(p.currentToken() == JsonToken.START_OBJECT);
        PlainRegion r = new PlainRegion(histograms, shared);
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            r.field(name, p, p.nextToken());
        }
        return r.region();
    }

    private void field(String name, JsonParser p, JsonToken t) throws IOException {
        switch (name) {
            case "id" -> id = text(first(ID), p, t);
            case "table" -> table = shared.id(text(first(TABLE), p, t));
            case "range" -> rangeId = text(first(RANGE), p, t);
            case "startKey" -> start = shared.start(key(first(START), p, t));
            case "endKey" -> end = shared.end(key(first(END), p, t));
            case "node" -> node = shared.id(text(first(NODE), p, t));
            case "sizeBytes" -> size = nonNegative(first(SIZE), p, t);
            case "measuredCpu" -> cpu = nonNegative(first(CPU), p, t);
            case "measuredDiskBytesPerSec" -> disk = nonNegative(first(DISK), p, t);
            case "keyHistogram" -> histogram(first(HISTOGRAM), p, t);
            default -> {
                if (!counters.read(name, p, t)) {
                    unknown(name, p);
                }
            }
        }
    }

    /** True the first time {@code field} is seen, false when it comes again. */
    private boolean first(int field) {
        boolean first = (seen & field) == 0;
        seen |= field;
        return first;
    }

    /** Read whole and dropped, as the tree reader reads it, so that what it would refuse is refused here too. */
    private void unknown(String name, JsonParser p) throws IOException {
        if (unknown == null) {
            unknown = new HashSet<>();
        }
        plain(unknown.add(name));
        SnapshotStream.value(p, histograms);
    }

    private void histogram(boolean first, JsonParser p, JsonToken t) throws IOException {
        plain(first);
        if (!histograms) {
            p.skipChildren();
            return;
        }
        plain(t == JsonToken.START_ARRAY);
        buckets = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            buckets.add(bucket(p));
        }
    }

    private static KeyBucket bucket(JsonParser p) throws IOException {
        plain(p.currentToken() == JsonToken.START_OBJECT);
        PlainCounters c = new PlainCounters();
        String endKey = null;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            if (name.equals("endKey")) {
                endKey = key(endKey == null, p, t);
            } else {
                plain(c.read(name, p, t));
            }
        }
        plain(endKey != null);
        return new KeyBucket(endKey, c.counters());
    }

    private Region region() {
        plain((seen & REQUIRED) == REQUIRED && (end.isEmpty() || start.compareTo(end) < 0));
        KeyRange range = new KeyRange(start, end);
        checkBuckets(range);
        return new Region(id, table, range, node, size, counters.counters(), buckets, rangeId, new MeasuredLoad(cpu, disk));
    }

    /** As {@link SnapshotRegions}: buckets close at increasing keys inside the region, the last one at its end. */
    private void checkBuckets(KeyRange range) {
        String previous = range.startKey();
        for (int k = 0; k < buckets.size(); k++) {
            String bucketEnd = buckets.get(k).endKey();
            boolean last = k == buckets.size() - 1;
            plain(!last || bucketEnd.equals(range.endKey()));
            boolean afterPrevious = bucketEnd.isEmpty() ? last : bucketEnd.compareTo(previous) > 0;
            boolean inside = bucketEnd.isEmpty() || range.endKey().isEmpty() || bucketEnd.compareTo(range.endKey()) <= 0;
            plain(afterPrevious && inside);
            previous = bucketEnd;
        }
    }

    /** A non-empty string, when its field is seen the {@code first} time. */
    private static String text(boolean first, JsonParser p, JsonToken t) throws IOException {
        plain(first && t == JsonToken.VALUE_STRING);
        String s = p.getText();
        plain(!s.isEmpty());
        return s;
    }

    /** A lowercase hex key, when its field is seen the {@code first} time. */
    private static String key(boolean first, JsonParser p, JsonToken t) throws IOException {
        plain(first && t == JsonToken.VALUE_STRING);
        String s = p.getText();
        plain(Keys.isHex(s));
        return s;
    }

    /** A finite number >= 0, valued as the tree reader values it (an int or long widened, a float parsed as double). */
    static double nonNegative(boolean first, JsonParser p, JsonToken t) throws IOException {
        plain(first);
        double v;
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            v = p.getDoubleValue();
        } else {
            plain(t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER);
            v = p.getLongValue();
        }
        plain(Double.isFinite(v) && v >= 0);
        return v;
    }
}
