package io.libra.core.model;

/**
 * Software counters of a region (or of a sub-range of it), as rates over the window:
 * user requests/s and user payload bytes/s.
 */
public record RegionCounters(double readOps, double writeOps, double readBytes, double writeBytes) {
    public static final RegionCounters ZERO = new RegionCounters(0, 0, 0, 0);

    public RegionCounters {
        Checks.nonNegative("readOps", readOps);
        Checks.nonNegative("writeOps", writeOps);
        Checks.nonNegative("readBytes", readBytes);
        Checks.nonNegative("writeBytes", writeBytes);
    }

    public RegionCounters plus(RegionCounters o) {
        return new RegionCounters(readOps + o.readOps, writeOps + o.writeOps,
                readBytes + o.readBytes, writeBytes + o.writeBytes);
    }

    public RegionCounters scaled(double f) {
        return new RegionCounters(readOps * f, writeOps * f, readBytes * f, writeBytes * f);
    }

    public double ops() {
        return readOps + writeOps;
    }
}
