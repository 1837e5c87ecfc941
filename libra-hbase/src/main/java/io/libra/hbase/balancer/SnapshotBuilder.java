package io.libra.hbase.balancer;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.hbase.reporter.LoadReport;
import io.libra.hbase.reporter.LoadReportMBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;

/**
 * Builds the core's view of the cluster from what the master knows: the assignment, the
 * {@link ClusterMetrics} (store file sizes, request counts turned into rates) and the
 * RegionServers' own reports (CPU, disk, per-region ops and bytes).
 *
 * <p>A node without a fresh report is estimated from its request counters (with the request sizes
 * last reported for its regions, {@link PayloadSizes}): its CPU and
 * disk are its regions' request weights times the load per unit of weight seen on the
 * reporting nodes (or a nominal unit when none reports), and never less than the reporting
 * nodes' mean, so that a silent server is not mistaken for an idle one; the balancer never
 * makes it a destination.
 * Capacities (heterogeneous targets) are used only when every node reports its cores and a
 * declared disk capacity.
 */
public final class SnapshotBuilder {
    /** Cores per weighted request/s, and disk bytes per unit of disk cost, when no node reports. */
    static final double NOMINAL_CPU_PER_WEIGHT = 1e-3;
    static final double NOMINAL_DISK_PER_COST = 1.0;

    private static final HexFormat HEX = HexFormat.of();

    private final EstimationConfig estimation;
    private final double defaultCpuCores;

    public SnapshotBuilder(EstimationConfig estimation, double defaultCpuCores) {
        this.estimation = estimation;
        this.defaultCpuCores = defaultCpuCores;
    }

    public HBaseSnapshot build(Map<ServerName, List<RegionInfo>> assignment, ClusterMetrics metrics,
                               RequestRates rates, Map<String, LoadReport> reports, Instant now) {
        return build(assignment, metrics, rates, reports, now, new PayloadSizes());
    }

    /** As above; {@code sizes} remembers the regions' request sizes across windows, for a server whose report goes missing. */
    HBaseSnapshot build(Map<ServerName, List<RegionInfo>> assignment, ClusterMetrics metrics, RequestRates rates,
                        Map<String, LoadReport> reports, Instant now, PayloadSizes sizes) {
        sizes.learn(assignment, reports);
        Map<String, RegionMetrics> regionMetrics = regionMetrics(metrics);
        Map<String, RegionInfo> regionInfos = new LinkedHashMap<>();
        Map<String, ServerName> servers = new LinkedHashMap<>();
        Map<String, List<Region>> byNode = new LinkedHashMap<>();
        java.util.Set<String> replicated = replicated(assignment);
        for (Map.Entry<ServerName, List<RegionInfo>> e : assignment.entrySet()) {
            String node = e.getKey().getServerName();
            servers.put(node, e.getKey());
            List<Region> regions = new ArrayList<>();
            LoadReport report = reports.get(node);
            for (RegionInfo ri : e.getValue()) {
                String id = ri.getEncodedName();
                regionInfos.put(id, ri);
                regions.add(region(ri, node, regionMetrics.get(id), counters(ri, report, rates, sizes), histogram(id, ri, report),
                        measured(id, report), replicated));
            }
            byNode.put(node, regions);
        }
        List<String> estimated = new ArrayList<>();
        List<Node> nodes = nodes(byNode, reports, estimated);
        List<Region> all = new ArrayList<>();
        byNode.values().forEach(all::addAll);
        double window = reports.values().stream().mapToDouble(LoadReport::windowSeconds).filter(w -> w > 0)
                .average().orElse(60);
        ClusterSnapshot snapshot = new ClusterSnapshot("hbase", now, window, nodes, all);
        return new HBaseSnapshot(snapshot, regionInfos, servers, estimated);
    }

    private static Map<String, RegionMetrics> regionMetrics(ClusterMetrics metrics) {
        Map<String, RegionMetrics> m = new HashMap<>();
        if (metrics != null) {
            for (ServerMetrics sm : metrics.getLiveServerMetrics().values()) {
                for (RegionMetrics rm : sm.getRegionMetrics().values()) {
                    m.put(RegionInfo.encodeRegionName(rm.getRegionName()), rm);
                }
            }
        }
        return m;
    }

    /** The reporter's ops and bytes when it knows the region; else the master's request rates at the sizes known. */
    private static RegionCounters counters(RegionInfo ri, LoadReport report, RequestRates rates, PayloadSizes sizes) {
        String id = ri.getEncodedName();
        if (report != null) {
            double[] r = report.regionRates().get(id);
            return r == null ? RegionCounters.ZERO : new RegionCounters(r[LoadReportMBean.READ_OPS],
                    r[LoadReportMBean.WRITE_OPS], r[LoadReportMBean.READ_BYTES], r[LoadReportMBean.WRITE_BYTES]);
        }
        return sizes.counters(ri, rates.rate(id));
    }

    /** The primaries (encoded names) with a secondary replica in the assignment. */
    private static java.util.Set<String> replicated(Map<ServerName, List<RegionInfo>> assignment) {
        java.util.Set<String> out = new java.util.HashSet<>();
        assignment.values().forEach(regions -> regions.stream().filter(ri -> !RegionReplicaUtil.isDefaultReplica(ri))
                .forEach(ri -> out.add(RegionReplicaUtil.getRegionInfoForDefaultReplica(ri).getEncodedName())));
        return out;
    }

    /**
     * A region of the model. A primary and its replicas share a key range: they carry the
     * primary's name as their range id, as replicas do in libra.snapshot/v1, so the window can be
     * written and read back (the export, the saved history).
     */
    private static Region region(RegionInfo ri, String node, RegionMetrics rm, RegionCounters counters,
                                 List<KeyBucket> histogram, MeasuredLoad measured, java.util.Set<String> replicated) {
        double size = rm == null ? 0
                : rm.getStoreFileSize().get(Size.Unit.BYTE) + rm.getMemStoreSize().get(Size.Unit.BYTE);
        KeyRange range = new KeyRange(HEX.formatHex(ri.getStartKey()), HEX.formatHex(ri.getEndKey()));
        String primary = RegionReplicaUtil.getRegionInfoForDefaultReplica(ri).getEncodedName();
        return new Region(ri.getEncodedName(), ri.getTable().getNameAsString(), range, node, size, counters, histogram,
                replicated.contains(primary) ? primary : null, measured);
    }

    /** The region's work the reporter measured (sampled thread CPU and I/O), or not measured. */
    private static MeasuredLoad measured(String id, LoadReport report) {
        double[] r = report == null ? null : report.regionRates().get(id);
        if (r == null || r.length <= Math.max(LoadReportMBean.MEASURED_CPU, LoadReportMBean.MEASURED_DISK)
                || Double.isNaN(r[LoadReportMBean.MEASURED_CPU]) || Double.isNaN(r[LoadReportMBean.MEASURED_DISK])) {
            return MeasuredLoad.NONE;
        }
        return new MeasuredLoad(Math.max(0, r[LoadReportMBean.MEASURED_CPU]), Math.max(0, r[LoadReportMBean.MEASURED_DISK]));
    }

    /**
     * The reporter's sampled key histogram of the region, so a split cuts where the load divides;
     * empty (the key-space midpoint) when there is none or it does not fit the region's range.
     */
    private static List<KeyBucket> histogram(String id, RegionInfo ri, LoadReport report) {
        List<KeyBucket> h = report == null ? null : report.keyHistograms().get(id);
        if (h == null || h.isEmpty()) {
            return List.of();
        }
        String start = HEX.formatHex(ri.getStartKey());
        String end = HEX.formatHex(ri.getEndKey());
        String previous = start;
        for (int i = 0; i < h.size(); i++) {
            String k = h.get(i).endKey();
            boolean last = i == h.size() - 1;
            if (last ? !k.equals(end) : k.isEmpty() || k.compareTo(previous) <= 0 || !end.isEmpty() && k.compareTo(end) >= 0) {
                return List.of();
            }
            previous = k;
        }
        return h;
    }

    private List<Node> nodes(Map<String, List<Region>> byNode, Map<String, LoadReport> reports, List<String> estimated) {
        double measuredCpu = 0;
        double measuredDisk = 0;
        double cpuWeight = 0;
        double diskWeight = 0;
        int reporting = 0;
        for (Map.Entry<String, List<Region>> e : byNode.entrySet()) {
            LoadReport r = reports.get(e.getKey());
            if (r != null) {
                reporting++;
                measuredCpu += r.cpuUsage();
                measuredDisk += r.diskBytesPerSec();
                cpuWeight += cpuWeight(e.getValue());
                diskWeight += diskWeight(e.getValue());
            }
        }
        // a server without a report is never taken for a cold one: not below the reporting servers' mean
        double cpuFloor = reporting > 0 ? measuredCpu / reporting : 0;
        double diskFloor = reporting > 0 ? measuredDisk / reporting : 0;
        double cpuPerWeight = cpuWeight > 0 ? measuredCpu / cpuWeight : NOMINAL_CPU_PER_WEIGHT;
        double diskPerWeight = diskWeight > 0 ? measuredDisk / diskWeight : NOMINAL_DISK_PER_COST;
        double cores = reports.values().stream().mapToDouble(LoadReport::cpuCores).filter(c -> c > 0).average()
                .orElse(defaultCpuCores);
        boolean capacities = byNode.keySet().stream().allMatch(n -> reports.containsKey(n)
                && reports.get(n).cpuCores() > 0 && reports.get(n).diskCapacityBytesPerSec() > 0);
        List<Node> nodes = new ArrayList<>();
        for (Map.Entry<String, List<Region>> e : byNode.entrySet()) {
            LoadReport r = reports.get(e.getKey());
            if (r != null) {
                Capacity capacity = capacities ? new Capacity(r.cpuCores(), r.diskCapacityBytesPerSec()) : null;
                nodes.add(new Node(e.getKey(), r.cpuCores() > 0 ? r.cpuCores() : cores, r.cpuUsage(), r.diskBytesPerSec(),
                        capacity));
            } else {
                estimated.add(e.getKey());
                nodes.add(new Node(e.getKey(), cores, Math.max(cpuFloor, cpuPerWeight * cpuWeight(e.getValue())),
                        Math.max(diskFloor, diskPerWeight * diskWeight(e.getValue()))));
            }
        }
        return nodes;
    }

    private double cpuWeight(List<Region> regions) {
        return regions.stream().mapToDouble(r -> estimation.cpuWeight(r.counters())).sum();
    }

    private double diskWeight(List<Region> regions) {
        return regions.stream().mapToDouble(r -> estimation.disk().cost(r.counters())).sum();
    }
}
