package io.libra.core.format;

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

    private final boolean histograms;
    final ObjectNode root = JsonNodeFactory.instance.objectNode();
    final List<Region> regions = new ArrayList<>();
    boolean regionsStreamed;
    FormatException regionFault;

    private SnapshotStream(boolean histograms) {
        this.histograms = histograms;
    }

    /** With {@code histograms} false, regions' key histograms are skipped unread (an earlier window's fit needs none). */
    static SnapshotStream read(JsonFields f, JsonParser p, boolean histograms) throws IOException {
        SnapshotStream s = new SnapshotStream(histograms);
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
        for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
            int index = i;
            if (!histograms && p.currentToken() == JsonToken.START_OBJECT) {
                region(() -> WindowRegion.read(f, p, index));
                continue;
            }
            JsonNode element = JsonFields.TREE.readTree(p);
            String path = JsonFields.at(REGIONS, index);
            region(() -> SnapshotRegions.readRegion(f, f.object(element, path), path));
        }
    }

    /** Reads one region; after the first fault the rest are still parsed (for syntax) but not kept. */
    private void region(RegionReader reader) throws IOException {
        try {
            Region r = reader.read();
            if (regionFault == null) {
                regions.add(r);
            }
        } catch (FormatException e) {
            if (regionFault == null) {
                regionFault = e;
            }
        }
    }

    @FunctionalInterface
    private interface RegionReader {
        Region read() throws IOException;
    }
}
