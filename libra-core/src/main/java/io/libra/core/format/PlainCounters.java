package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.libra.core.model.RegionCounters;
import java.io.IOException;

/** The four counters of a region or key bucket as {@link PlainRegion} reads them, each required once. */
final class PlainCounters {
    private final double[] values = new double[4];
    private int seen;

    /** Reads the value of field {@code name} if it is a counter; false if it is not. */
    boolean read(String name, JsonParser p, JsonToken t) throws IOException {
        int i = switch (name) {
            case "readOps" -> 0;
            case "writeOps" -> 1;
            case "readBytes" -> 2;
            case "writeBytes" -> 3;
            default -> -1;
        };
        if (i < 0) {
            return false;
        }
        values[i] = PlainRegion.nonNegative((seen & 1 << i) == 0, p, t);
        seen |= 1 << i;
        return true;
    }

    RegionCounters counters() {
        PlainRegion.plain(seen == 0b1111);
        return new RegionCounters(values[0], values[1], values[2], values[3]);
    }
}
