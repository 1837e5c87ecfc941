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
}
