package io.libra.hbase.balancer;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.hbase.reporter.LoadReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetricsBuilder;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.RegionMetricsBuilder;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerMetricsBuilder;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;

/**
 * A core snapshot as the HBase master would see it: the assignment, two successive
 * {@link ClusterMetrics} one window apart (request counts growing by rate × window, so any
 * balancer that derives rates from successive reports sees the snapshot's rates) and the
 * RegionServers' reports. Both balancers of a side-by-side get exactly these objects.
 */
public final class SnapshotMetrics {
    public static final long T0 = 1_700_000_000_000L;

    public final Map<ServerName, List<RegionInfo>> assignment = new LinkedHashMap<>();
    public final Map<String, ServerName> serverOfNode = new HashMap<>();
    public final Map<String, String> nodeOfServer = new HashMap<>();
    public final Map<String, RegionInfo> regionOfId = new HashMap<>();
    public final Map<String, String> idOfEncoded = new HashMap<>();
    public final Map<String, LoadReport> reports = new HashMap<>();
    public final ClusterMetrics first;
    public final ClusterMetrics second;

    public SnapshotMetrics(ClusterSnapshot s) {
        this(s, System.currentTimeMillis());
    }

    /** With the RegionServers' reports stamped {@code reportedAtMillis}. */
    public SnapshotMetrics(ClusterSnapshot s, long reportedAtMillis) {
        HexFormat hex = HexFormat.of();
        long regionId = 1;
        for (Node n : s.nodes()) {
            ServerName sn = ServerName.valueOf(n.id(), 16020, 1L);
            serverOfNode.put(n.id(), sn);
            nodeOfServer.put(sn.getServerName(), n.id());
            assignment.put(sn, new ArrayList<>());
        }
        Map<ServerName, List<Region>> regionsOf = new HashMap<>();
        for (Region r : s.regions()) {
            RegionInfo ri = RegionInfoBuilder.newBuilder(TableName.valueOf(r.table()))
                    .setStartKey(hex.parseHex(r.range().startKey())).setEndKey(hex.parseHex(r.range().endKey()))
                    .setRegionId(regionId++).build();
            ServerName sn = serverOfNode.get(r.node());
            assignment.get(sn).add(ri);
            regionOfId.put(r.id(), ri);
            idOfEncoded.put(ri.getEncodedName(), r.id());
            regionsOf.computeIfAbsent(sn, k -> new ArrayList<>()).add(r);
        }
        long window = (long) (s.windowSeconds() * 1000);
        first = metrics(s, regionsOf, T0, 0);
        second = metrics(s, regionsOf, T0 + window, s.windowSeconds());
        for (Node n : s.nodes()) {
            ServerName sn = serverOfNode.get(n.id());
            Map<String, double[]> rates = new HashMap<>();
            for (Region r : regionsOf.getOrDefault(sn, List.of())) {
                rates.put(regionOfId.get(r.id()).getEncodedName(), new double[] {r.counters().readOps(),
                        r.counters().writeOps(), r.counters().readBytes(), r.counters().writeBytes()});
            }
            reports.put(sn.getServerName(), new LoadReport(sn.getServerName(), reportedAtMillis,
                    s.windowSeconds(), n.capacity() != null ? n.capacity().cpu() : n.cpuCores(), n.cpuUsage(), "snapshot",
                    n.diskBytesPerSec(), 0, "snapshot", rates, n.capacity() != null ? n.capacity().diskBytesPerSec() : 0));
        }
    }

    private ClusterMetrics metrics(ClusterSnapshot s, Map<ServerName, List<Region>> regionsOf, long at, double seconds) {
        Map<ServerName, ServerMetrics> live = new LinkedHashMap<>();
        for (Map.Entry<ServerName, List<RegionInfo>> e : assignment.entrySet()) {
            List<RegionMetrics> rms = new ArrayList<>();
            for (Region r : regionsOf.getOrDefault(e.getKey(), List.of())) {
                RegionInfo ri = regionOfId.get(r.id());
                rms.add(RegionMetricsBuilder.newBuilder(ri.getRegionName())
                        .setReadRequestCount(Math.round(r.counters().readOps() * seconds))
                        .setWriteRequestCount(Math.round(r.counters().writeOps() * seconds))
                        .setStoreFileSize(new Size(r.sizeBytes(), Size.Unit.BYTE))
                        .setRegionSizeMB(new Size(r.sizeBytes() / (1 << 20), Size.Unit.MEGABYTE))
                        .setStoreFileCount(1)
                        .build());
            }
            live.put(e.getKey(), ServerMetricsBuilder.newBuilder(e.getKey()).setRegionMetrics(rms)
                    .setReportTimestamp(at).setLastReportTimestamp(at - 3000).setInfoServerPort(-1).build());
        }
        return ClusterMetricsBuilder.newBuilder().setLiveServerMetrics(live).build();
    }

    /** Maps HBase region plans back to (snapshot region id, from node, to node). */
    public List<String[]> moves(List<org.apache.hadoop.hbase.master.RegionPlan> plans) {
        List<String[]> out = new ArrayList<>();
        if (plans != null) {
            for (org.apache.hadoop.hbase.master.RegionPlan p : plans) {
                out.add(new String[] {idOfEncoded.get(p.getRegionInfo().getEncodedName()),
                        nodeOfServer.get(p.getSource().getServerName()), nodeOfServer.get(p.getDestination().getServerName())});
            }
        }
        return out;
    }
}
