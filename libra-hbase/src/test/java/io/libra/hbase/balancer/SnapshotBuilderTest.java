package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.hbase.reporter.LoadReport;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotBuilderTest {
    private final SnapshotMetrics cluster = new SnapshotMetrics(Skewed.snapshot());

    private HBaseSnapshot build(Map<String, LoadReport> reports) {
        RequestRates rates = new RequestRates();
        rates.update(cluster.first);
        rates.update(cluster.second);
        return new SnapshotBuilder(EstimationConfig.DEFAULT, 8).build(cluster.assignment, cluster.second, rates, reports,
                Instant.EPOCH);
    }

    @Test
    void reportedNodesKeepTheirMeasuredFiguresAndRegionsTheirKeysAndSizes() {
        HBaseSnapshot s = build(cluster.reports);
        ClusterSnapshot snap = s.snapshot();
        assertThat(s.estimatedNodes()).isEmpty();
        assertThat(snap.regions()).hasSize(32);
        Node rs1 = snap.node(cluster.serverOfNode.get("rs-1").getServerName()).orElseThrow();
        assertThat(rs1.cpuUsage()).isEqualTo(Skewed.snapshot().node("rs-1").orElseThrow().cpuUsage());
        assertThat(snap.regions()).allSatisfy(r -> assertThat(r.sizeBytes()).isEqualTo(64.0 * (1 << 20)));
        assertThat(snap.regions().get(0).range().startKey()).isEmpty();
        assertThat(snap.hasCapacities()).isFalse(); // no disk capacity declared
    }

    @Test
    void aNodeWithoutReportIsEstimatedFromItsRequestRatesAtTheReportingNodesScale() {
        Map<String, LoadReport> some = new HashMap<>(cluster.reports);
        String rs3 = cluster.serverOfNode.get("rs-3").getServerName();
        some.remove(rs3);
        HBaseSnapshot s = build(some);
        assertThat(s.estimatedNodes()).containsExactly(rs3);
        Node estimated = s.snapshot().node(rs3).orElseThrow();
        assertThat(estimated.cpuUsage()).isPositive();
        assertThat(estimated.diskBytesPerSec()).isPositive();
    }

    @Test
    void capacitiesOnlyWhenEveryNodeDeclaresThem() {
        Map<String, LoadReport> declared = new HashMap<>();
        cluster.reports.forEach((k, r) -> declared.put(k, new LoadReport(r.serverName(), r.updatedAtMillis(),
                r.windowSeconds(), r.cpuCores(), r.cpuUsage(), r.cpuSource(), r.diskReadBytesPerSec(),
                r.diskWriteBytesPerSec(), r.diskSource(), r.regionRates(), 500e6)));
        assertThat(build(declared).snapshot().hasCapacities()).isTrue();
        declared.remove(cluster.serverOfNode.get("rs-2").getServerName());
        assertThat(build(declared).snapshot().hasCapacities()).isFalse();
    }

    @Test
    void regionsCarryTheReportersKeyHistogramWhenItFitsTheirRange() {
        org.apache.hadoop.hbase.client.RegionInfo last = cluster.regionOfId.get("r-31"); // [f8, "")
        org.apache.hadoop.hbase.client.RegionInfo first = cluster.regionOfId.get("r-0"); // ["", 08)
        String server = cluster.serverOfNode.get(cluster.nodeOfServer.get(
                cluster.assignment.entrySet().stream().filter(e -> e.getValue().contains(last)).findFirst()
                        .orElseThrow().getKey().getServerName())).getServerName();
        String server0 = cluster.assignment.entrySet().stream().filter(e -> e.getValue().contains(first)).findFirst()
                .orElseThrow().getKey().getServerName();
        java.util.List<io.libra.core.model.KeyBucket> fits = java.util.List.of(
                new io.libra.core.model.KeyBucket("f801", new io.libra.core.model.RegionCounters(1, 0, 0, 0)),
                new io.libra.core.model.KeyBucket("", new io.libra.core.model.RegionCounters(1, 0, 0, 0)));
        java.util.List<io.libra.core.model.KeyBucket> elsewhere = java.util.List.of(
                new io.libra.core.model.KeyBucket("f801", new io.libra.core.model.RegionCounters(1, 0, 0, 0)));
        Map<String, LoadReport> reports = new HashMap<>(cluster.reports);
        reports.put(server, reports.get(server).withKeyHistograms(Map.of(last.getEncodedName(), fits)));
        LoadReport r0 = reports.get(server0);
        Map<String, java.util.List<io.libra.core.model.KeyBucket>> h0 = new HashMap<>(r0.keyHistograms());
        h0.put(first.getEncodedName(), elsewhere);
        reports.put(server0, r0.withKeyHistograms(h0));
        ClusterSnapshot snap = build(reports).snapshot();
        assertThat(snap.regions().stream().filter(r -> r.id().equals(last.getEncodedName())).findFirst().orElseThrow()
                .histogram()).isEqualTo(fits);
        assertThat(snap.regions().stream().filter(r -> r.id().equals(first.getEncodedName())).findFirst().orElseThrow()
                .histogram()).as("outside the region's range: not used").isEmpty();
    }

    @Test
    void aRegionAndItsReplicaShareARangeIdSoTheWindowReadsBack() {
        Map<org.apache.hadoop.hbase.ServerName, java.util.List<org.apache.hadoop.hbase.client.RegionInfo>> assignment =
                new java.util.LinkedHashMap<>();
        cluster.assignment.forEach((sn, regions) -> assignment.put(sn, new java.util.ArrayList<>(regions)));
        var servers = new java.util.ArrayList<>(assignment.keySet());
        var primary = assignment.get(servers.get(0)).get(0);
        var replica = org.apache.hadoop.hbase.client.RegionReplicaUtil.getRegionInfoForReplica(primary, 1);
        assignment.get(servers.get(1)).add(replica);
        ClusterSnapshot snap = new SnapshotBuilder(EstimationConfig.DEFAULT, 8).build(assignment, cluster.second,
                new RequestRates(), cluster.reports, Instant.EPOCH).snapshot();
        assertThat(snap.regions()).filteredOn(r -> r.rangeId() != null).extracting(r -> r.id() + "=" + r.rangeId())
                .containsExactlyInAnyOrder(primary.getEncodedName() + "=" + primary.getEncodedName(),
                        replica.getEncodedName() + "=" + primary.getEncodedName());
        ClusterSnapshot read = io.libra.core.format.SnapshotCodec.read("window",
                io.libra.core.format.SnapshotCodec.write(snap).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(read.regions()).hasSize(snap.regions().size());
    }

    /**
     * ByTableIT's missing-report case: a table of tiny gets and a table of 16 KiB puts, and the
     * server that stops reporting carries both. Its regions' counters then come from the master,
     * which counts requests but not bytes.
     */
    private static ClusterSnapshot readsAndPuts() {
        java.util.List<io.libra.core.model.Region> regions = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) {
            boolean puts = i >= 8;
            String node = puts ? "rs-" + (1 + (i - 8) / 2) : i < 6 ? "rs-1" : "rs-4";
            io.libra.core.model.RegionCounters c = puts ? new io.libra.core.model.RegionCounters(0, 20, 0, 20 * 16384.0)
                    : new io.libra.core.model.RegionCounters(2000, 0, 2000 * 16.0, 0);
            regions.add(new io.libra.core.model.Region("r-" + i, puts ? "disktable" : "cputable",
                    new io.libra.core.model.KeyRange(String.format("%02x", i), String.format("%02x", i + 1)), node,
                    1 << 20, c));
        }
        ClusterSnapshot s = Skewed.snapshot();
        return Skewed.after(s.withState(s.nodes(), regions), Map.of(), Skewed.AT);
    }

    @Test
    void aServerWithoutReportHasItsRegionsBytesAtTheSizesLastReportedNotZero() {
        SnapshotMetrics two = new SnapshotMetrics(readsAndPuts());
        String silent = two.serverOfNode.get("rs-4").getServerName();
        Map<String, LoadReport> some = new HashMap<>(two.reports);
        some.remove(silent);
        RequestRates rates = new RequestRates();
        rates.update(two.first);
        rates.update(two.second);
        PayloadSizes sizes = new PayloadSizes();
        SnapshotBuilder builder = new SnapshotBuilder(EstimationConfig.DEFAULT, 8);
        ClusterSnapshot all = builder.build(two.assignment, two.second, rates, two.reports, Instant.EPOCH, sizes)
                .snapshot();
        ClusterSnapshot missing = builder.build(two.assignment, two.second, rates, some, Instant.EPOCH, sizes)
                .snapshot();
        ClusterSnapshot firstSeen = builder.build(two.assignment, two.second, rates, some, Instant.EPOCH,
                new PayloadSizes()).snapshot();
        for (ClusterSnapshot s : java.util.List.of(missing, firstSeen)) {
            assertThat(s.regions()).filteredOn(r -> r.node().equals(silent) && r.table().equals("disktable"))
                    .hasSize(2).allSatisfy(r -> assertThat(r.counters().writeBytes()).as("16 KiB puts")
                            .isCloseTo(20 * 16384.0, org.assertj.core.data.Percentage.withPercentage(1)));
        }
        // the disk the model gives the silent server's put regions is what it gives them when it reports
        io.libra.core.estimate.LoadModel reported = io.libra.core.Planner.builder().learning(false).build().estimate(all);
        io.libra.core.estimate.LoadModel modelled = io.libra.core.Planner.builder().learning(false).build()
                .estimate(missing);
        for (io.libra.core.model.Region r : all.regions()) {
            if (r.node().equals(silent) && r.table().equals("disktable")) {
                assertThat(disk(modelled, r.id())).as(r.id())
                        .isCloseTo(disk(reported, r.id()), org.assertj.core.data.Percentage.withPercentage(25));
            }
        }
    }

    private static double disk(io.libra.core.estimate.LoadModel m, String id) {
        return m.regions().stream().filter(r -> r.region().id().equals(id)).findFirst().orElseThrow()
                .disk();
    }
}
