package io.libra.hbase.balancer;

import io.libra.core.model.RegionCounters;
import io.libra.hbase.reporter.LoadReport;
import io.libra.hbase.reporter.LoadReportMBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Bytes per read and per write of each region, as its server last reported them. The master's
 * own counters of a server without a fresh report give only request counts; without sizes the
 * disk cost model would take a 16 KiB put for a 64-byte one, and the server's disk would be
 * shared out to its read-heavy regions. Such a region's bytes are its ops times its own last
 * reported size, else the mean size of its table's reported requests in this window.
 */
final class PayloadSizes {
    /** Bytes per read op and per write op. */
    private record Size(double read, double write) {
        static final Size NONE = new Size(0, 0);
    }

    private final Map<String, Size> byRegion = new HashMap<>();
    private Map<String, Size> byTable = Map.of();

    /** Takes in this window's reports: each reported region's sizes, and each table's mean sizes. */
    synchronized void learn(Map<ServerName, List<RegionInfo>> assignment, Map<String, LoadReport> reports) {
        Map<String, double[]> tables = new HashMap<>();
        for (Map.Entry<ServerName, List<RegionInfo>> e : assignment.entrySet()) {
            LoadReport report = reports.get(e.getKey().getServerName());
            if (report == null) {
                continue;
            }
            for (RegionInfo ri : e.getValue()) {
                double[] r = report.regionRates().get(ri.getEncodedName());
                if (r == null) {
                    continue;
                }
                double[] sum = tables.computeIfAbsent(ri.getTable().getNameAsString(), t -> new double[r.length]);
                for (int i = 0; i < Math.min(r.length, sum.length); i++) {
                    sum[i] += r[i];
                }
                Size was = byRegion.get(ri.getEncodedName());
                byRegion.put(ri.getEncodedName(), new Size(
                        perOp(r[LoadReportMBean.READ_BYTES], r[LoadReportMBean.READ_OPS], was == null ? 0 : was.read()),
                        perOp(r[LoadReportMBean.WRITE_BYTES], r[LoadReportMBean.WRITE_OPS], was == null ? 0 : was.write())));
            }
        }
        Map<String, Size> means = new HashMap<>();
        tables.forEach((t, s) -> means.put(t, new Size(perOp(s[LoadReportMBean.READ_BYTES], s[LoadReportMBean.READ_OPS], 0),
                perOp(s[LoadReportMBean.WRITE_BYTES], s[LoadReportMBean.WRITE_OPS], 0))));
        byTable = means;
    }

    /** A region of a server without a report: the master's request rates, with bytes at the sizes known for it. */
    synchronized RegionCounters counters(RegionInfo ri, RequestRates.Rate rate) {
        Size own = byRegion.getOrDefault(ri.getEncodedName(), Size.NONE);
        Size table = byTable.getOrDefault(ri.getTable().getNameAsString(), Size.NONE);
        double read = own.read() > 0 ? own.read() : table.read();
        double write = own.write() > 0 ? own.write() : table.write();
        return new RegionCounters(rate.readOps(), rate.writeOps(), rate.readOps() * read, rate.writeOps() * write);
    }

    /** Forgets regions no longer in the cluster. */
    synchronized void retain(Set<String> live) {
        byRegion.keySet().retainAll(live);
    }

    /** Bytes per op when there were ops; else what was known before. */
    private static double perOp(double bytes, double ops, double before) {
        return ops > 0 ? bytes / ops : before;
    }
}
