package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Keys;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.io.IOException;
import java.util.List;

/**
 * One region of an earlier window read straight off the parser into slots, with no tree: the
 * tree of each region (an object node and a node per value) was a third of reading a window. A
 * region that is not plainly valid (a value of the wrong type, a null, an unknown field, a
 * failed check) is handed as a tree to {@link SnapshotRegions#readRegion}, so every fault is
 * named and worded exactly as in a full read. The key histogram is skipped unread.
 */
final class WindowRegion {
    private static final List<String> TEXT = List.of("id", "table", "range", "startKey", "endKey", "node");
    private static final List<String> NUMBERS = List.of("sizeBytes", "readOps", "writeOps", "readBytes", "writeBytes",
            "measuredCpu", "measuredDiskBytesPerSec");
    private static final int ID = 0;
    private static final int TABLE = 1;
    private static final int RANGE = 2;
    private static final int START = 3;
    private static final int END = 4;
    private static final int NODE = 5;
    private static final int SIZE = 0;
    private static final int MEASURED_CPU = 5;
    private static final int MEASURED_DISK = 6;
    private static final String HISTOGRAM = "keyHistogram";

    private final String[] text = new String[TEXT.size()];
    private final double[] numbers = new double[NUMBERS.size()];
    private int seen;
    private boolean odd;
    private ObjectNode others;

    private WindowRegion() {
    }

    /** Reads the object the parser stands on (START_OBJECT) and returns its region, or throws its fault. */
    static Region read(JsonFields f, JsonParser p, int index) throws IOException {
        WindowRegion w = new WindowRegion();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            w.once(name, p);
            w.field(name, value, p);
        }
        Region r = w.plainRegion();
        if (r != null) {
            return r;
        }
        String path = JsonFields.at(SnapshotStream.REGIONS, index);
        return SnapshotRegions.readRegion(f, w.tree(), path);
    }

    /** A field may come once, as in a full read (reported where its second value starts, as there). */
    private void once(String name, JsonParser p) throws JsonParseException {
        int t = TEXT.indexOf(name);
        int n = t < 0 ? NUMBERS.indexOf(name) : -1;
        int bit = t >= 0 ? 1 << t : n >= 0 ? 1 << (TEXT.size() + n) : 0;
        if ((seen & bit) != 0 || bit == 0 && others != null && others.has(name)) {
            throw new JsonParseException(p, "Duplicate field '" + name + "'", p.currentTokenLocation());
        }
        seen |= bit;
    }

    private void field(String name, JsonToken value, JsonParser p) throws IOException {
        int t = TEXT.indexOf(name);
        int n = t < 0 ? NUMBERS.indexOf(name) : -1;
        if (t >= 0 && value == JsonToken.VALUE_STRING) {
            text[t] = p.getText();
        } else if (n >= 0 && (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT)) {
            numbers[n] = p.getDoubleValue();
        } else if (name.equals(HISTOGRAM)) {
            p.skipChildren();
        } else {
            other(name, p);
        }
    }

    /** A value off the plain path: kept as a tree for the full reader to judge. */
    private void other(String name, JsonParser p) throws IOException {
        if (others == null) {
            others = JsonNodeFactory.instance.objectNode();
        }
        odd |= TEXT.contains(name) || NUMBERS.contains(name);
        others.set(name, JsonFields.TREE.readTree(p));
    }

    /** The region when every field is present (or optional and absent) and valid; null otherwise. */
    private Region plainRegion() {
        if (odd) {
            return null;
        }
        boolean keys = text[START] != null && text[END] != null && Keys.isHex(text[START]) && Keys.isHex(text[END])
                && (text[END].isEmpty() || text[START].compareTo(text[END]) < 0);
        boolean names = named(text[ID]) && named(text[TABLE]) && named(text[NODE]) && (!has(RANGE, true) || named(text[RANGE]));
        if (!keys || !names || !counted()) {
            return null;
        }
        RegionCounters c = new RegionCounters(numbers[1], numbers[2], numbers[3], numbers[4]);
        MeasuredLoad m = new MeasuredLoad(optional(MEASURED_CPU), optional(MEASURED_DISK));
        return new Region(text[ID], text[TABLE], new KeyRange(text[START], text[END]), text[NODE], numbers[SIZE], c,
                List.of(), text[RANGE], m);
    }

    private boolean has(int slot, boolean isText) {
        return (seen & (1 << (isText ? slot : TEXT.size() + slot))) != 0;
    }

    private static boolean named(String s) {
        return s != null && !s.isEmpty();
    }

    /** Size and counters present, measured figures present or absent, all finite and >= 0. */
    private boolean counted() {
        for (int k = 0; k < NUMBERS.size(); k++) {
            boolean required = k < MEASURED_CPU;
            if (!has(k, false)) {
                if (required) {
                    return false;
                }
            } else if (!Double.isFinite(numbers[k]) || numbers[k] < 0) {
                return false;
            }
        }
        return true;
    }

    private double optional(int k) {
        return has(k, false) ? numbers[k] : Double.NaN;
    }

    /** The region as the tree a full read would have built (histogram aside). */
    private ObjectNode tree() {
        ObjectNode o = others == null ? JsonNodeFactory.instance.objectNode() : others;
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        for (int t = 0; t < TEXT.size(); t++) {
            if (text[t] != null) {
                o.set(TEXT.get(t), nodes.textNode(text[t]));
            }
        }
        for (int k = 0; k < NUMBERS.size(); k++) {
            if (has(k, false) && !o.has(NUMBERS.get(k))) {
                o.set(NUMBERS.get(k), nodes.numberNode(numbers[k]));
            }
        }
        return o;
    }
}
