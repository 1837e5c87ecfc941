package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.Region;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A snapshot document read in one pass: every top-level field as a tree except {@code regions},
 * whose elements are turned into {@link Region}s one at a time. The tree of a large snapshot is
 * several times its text; built whole, it dominated parsing time through garbage collection.
 *
 * <p>The first faulty region is kept, not thrown, so that faults in the top-level fields are still
 * reported first, as when the whole tree is read before anything is built.
 */
final class SnapshotStream {
    static final String REGIONS = "regions";
    private static final String HISTOGRAM = "keyHistogram";

    private final boolean histograms;
    private final boolean plain;
    final ObjectNode root = JsonNodeFactory.instance.objectNode();
    final List<Region> regions = new ArrayList<>();
    boolean regionsStreamed;
    FormatException regionFault;

    private SnapshotStream(boolean histograms, boolean plain) {
        this.histograms = histograms;
        this.plain = plain;
    }

    /**
     * With {@code histograms} false, regions' key histograms are skipped unread (an earlier window's
     * fit needs none). With {@code plain}, regions are read by {@link PlainRegion}, which throws
     * {@link PlainRegion.NotPlain} at the first region it cannot read.
     */
    static SnapshotStream read(JsonFields f, JsonParser p, boolean histograms, boolean plain) throws IOException {
        SnapshotStream s = new SnapshotStream(histograms, plain);
        if (p.nextToken() != JsonToken.START_OBJECT) {
            f.object(JsonFields.TREE.readTree(p), "");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (s.root.has(name) || (s.regionsStreamed && name.equals(REGIONS))) {
                throw f.error(name, "not valid JSON: Duplicate field '" + name + "'");
            }
            if (name.equals(REGIONS) && value == JsonToken.START_ARRAY) {
                s.streamRegions(f, p);
            } else {
                s.root.set(name, JsonFields.TREE.readTree(p));
            }
        }
        return s;
    }

    private void streamRegions(JsonFields f, JsonParser p) throws IOException {
        regionsStreamed = true;
        PlainRegion.Shared shared = new PlainRegion.Shared();
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            if (plain) {
                regions.add(PlainRegion.read(p, histograms, shared));
                continue;
            }
            JsonNode element = histograms ? JsonFields.TREE.readTree(p) : withoutHistogram(p);
            if (regionFault == null) {
                String path = JsonFields.at(REGIONS, i);
                try {
                    regions.add(SnapshotRegions.readRegion(f, f.object(element, path), path));
                } catch (FormatException e) {
                    regionFault = e;
                }
            }
        }
    }

    private static JsonNode withoutHistogram(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return JsonFields.TREE.readTree(p);
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (o.has(name)) {
                // where the second value starts, as the tree reader reports it
                throw new JsonParseException(p, "Duplicate field '" + name + "'", p.currentTokenLocation());
            }
            if (name.equals(HISTOGRAM)) {
                p.skipChildren();
            } else {
                o.set(name, value(p));
            }
        }
        return o;
    }

    /** A field's value read as the tree of its region would read it: whole, or as {@link #withoutHistogram} does. */
    static JsonNode value(JsonParser p, boolean histograms) throws IOException {
        return histograms ? JsonFields.TREE.readTree(p) : value(p);
    }

    /** A scalar straight from the parser (a tree read per field costs a deserialisation context each). */
    private static JsonNode value(JsonParser p) throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (p.currentToken()) {
            case VALUE_STRING -> nodes.textNode(p.getText());
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> nodes.numberNode(p.getIntValue());
                case LONG -> nodes.numberNode(p.getLongValue());
                default -> nodes.numberNode(p.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> nodes.numberNode(p.getDoubleValue());
            default -> JsonFields.TREE.readTree(p);
        };
    }
}
