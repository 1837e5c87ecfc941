package io.libra.core.sim;

/**
 * What one region's clients ask of it over a window, in the simulator's hidden terms: request
 * rates and the shape of the requests. The {@link CostModel} turns this into CPU and disk
 * truth; strategies never see it (they see counters in a snapshot).
 *
 * @param readOps        point reads/s
 * @param writeOps       writes (puts, updates, inserts)/s
 * @param scanOps        scans/s
 * @param rowsPerScan    rows a scan returns on average
 * @param meanValueBytes mean size of a value read or written
 * @param sizeBytes      data held by the region (what a migration copies)
 * @param hotBytes       the region's working set: the bytes its reads keep touching
 */
public record RegionTraffic(String id, double readOps, double writeOps, double scanOps, double rowsPerScan,
                            double meanValueBytes, double sizeBytes, double hotBytes) {
    public RegionTraffic {
        for (double v : new double[] {readOps, writeOps, scanOps, rowsPerScan, meanValueBytes, sizeBytes, hotBytes}) {
            if (!Double.isFinite(v) || v < 0) {
                throw new IllegalArgumentException("region traffic " + id + ": rates and sizes must be finite and >= 0");
            }
        }
    }

    /** A region that only serves point reads and writes. */
    public static RegionTraffic pointOps(String id, double readOps, double writeOps, double meanValueBytes,
                                         double sizeBytes, double hotBytes) {
        return new RegionTraffic(id, readOps, writeOps, 0, 0, meanValueBytes, sizeBytes, hotBytes);
    }

    /** Rows read per second: point reads plus every row a scan returns. */
    public double rowsRead() {
        return readOps + scanOps * rowsPerScan;
    }

    public double readBytes() {
        return rowsRead() * meanValueBytes;
    }

    public double writeBytes() {
        return writeOps * meanValueBytes;
    }

    /** All requests/s (a scan counts once). */
    public double requests() {
        return readOps + writeOps + scanOps;
    }

    public RegionTraffic scaled(double f) {
        return new RegionTraffic(id, readOps * f, writeOps * f, scanOps * f, rowsPerScan, meanValueBytes, sizeBytes, hotBytes);
    }
}
