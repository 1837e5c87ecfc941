package io.libra.core.sim;

import io.libra.core.model.RegionCounters;

/**
 * What clients ask of the whole key space in one window, as a density over fine cells of
 * [0, 1): each cell's share of requests and the mean value size of its keys. A region's
 * traffic is the integral over its key range, so splits and merges follow the data exactly.
 *
 * @param opsShare    per cell, share of all requests (sums to 1)
 * @param valueBytes  per cell, mean value size
 * @param totalOps    requests/s over the whole cluster
 * @param mix         what a request is
 * @param dataBytes   data held by the whole key space (uniform over it)
 * @param hotFraction share of a region's data its reads keep touching
 */
public record Workload(double[] opsShare, double[] valueBytes, double totalOps, Mix mix, double dataBytes,
                       double hotFraction) {

    /** Request mix: shares of point reads, writes and scans (sum 1) and rows per scan. */
    public record Mix(double read, double write, double scan, double rowsPerScan) {
    }

    public int cells() {
        return opsShare.length;
    }

    public Workload withTotalOps(double ops) {
        return new Workload(opsShare, valueBytes, ops, mix, dataBytes, hotFraction);
    }

    /** Share of requests in [x0, x1) and the request-weighted value bytes there. */
    double[] integrate(double x0, double x1) {
        int n = opsShare.length;
        double ops = 0;
        double bytes = 0;
        double a = x0 * n;
        double b = x1 * n;
        for (int g = (int) Math.floor(a); g < Math.min(n, Math.ceil(b)); g++) {
            double overlap = Math.min(b, g + 1) - Math.max(a, g);
            if (overlap > 0) {
                double w = opsShare[g] * overlap;
                ops += w;
                bytes += w * valueBytes[g];
            }
        }
        return new double[] {ops, bytes};
    }

    /** The hidden traffic of a region covering [x0, x1). */
    public RegionTraffic traffic(String id, double x0, double x1) {
        double[] in = integrate(x0, x1);
        double ops = in[0] * totalOps;
        double value = in[0] > 0 ? in[1] / in[0] : meanValue();
        double size = dataBytes * (x1 - x0);
        return new RegionTraffic(id, ops * mix.read(), ops * mix.write(), ops * mix.scan(), mix.rowsPerScan(),
                value, size, size * hotFraction);
    }

    /** The software counters a store would keep for [x0, x1): rows read, writes and their payload bytes. */
    public RegionCounters counters(double x0, double x1) {
        RegionTraffic t = traffic("", x0, x1);
        return new RegionCounters(t.rowsRead(), t.writeOps(), t.readBytes(), t.writeBytes());
    }

    /** Request-weighted mean value size over the whole key space. */
    public double meanValue() {
        double[] all = integrate(0, 1);
        return all[0] > 0 ? all[1] / all[0] : 1024;
    }
}
