package io.libra.hbase.it;

import io.libra.core.Planner;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.plan.Balance;
import io.libra.hbase.balancer.HBaseSnapshot;
import io.libra.hbase.balancer.ReporterClient;
import io.libra.hbase.balancer.RequestRates;
import io.libra.hbase.balancer.SnapshotBuilder;
import io.libra.hbase.reporter.LoadReport;
import io.libra.it.Poll;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Measures a cluster the same way whichever balancer runs it: the RegionServers' own reports
 * (read from their /jmx), mapped by the paper's metric mapping, give each node's CPU and disk;
 * Max/Mean is averaged over several successive report windows to smooth the noise of a
 * 2-core machine.
 */
final class LoadMeter {
    private final Admin admin;
    private final int servers;
    private final ReporterClient client = new ReporterClient(Duration.ofSeconds(5));

    /** The cluster {@code admin} reaches, with {@code servers} RegionServers. */
    LoadMeter(Admin admin, int servers) {
        this.admin = admin;
        this.servers = servers;
    }

    Map<String, LoadReport> reports() throws IOException {
        ClusterMetrics cm = admin.getClusterMetrics();
        Map<String, URI> endpoints = new HashMap<>();
        for (Map.Entry<ServerName, ServerMetrics> e : cm.getLiveServerMetrics().entrySet()) {
            endpoints.put(e.getKey().getServerName(),
                    URI.create("http://127.0.0.1:" + e.getValue().getInfoServerPort() + "/"));
        }
        return client.fetch(endpoints);
    }

    /** Waits for every RegionServer to publish a report whose window started after {@code since}. */
    Map<String, LoadReport> freshReports(Instant since) {
        AtomicReference<Map<String, LoadReport>> got = new AtomicReference<>();
        Poll.until(Duration.ofSeconds(60), "fresh reports from every RegionServer", () -> {
            Map<String, LoadReport> r = reports();
            boolean fresh = r.size() == servers && r.values().stream().allMatch(
                    x -> x.updatedAtMillis() - x.windowSeconds() * 1000 >= since.toEpochMilli());
            got.set(r);
            return fresh;
        });
        return got.get();
    }

    HBaseSnapshot snapshot(Map<String, LoadReport> reports) throws IOException {
        Map<ServerName, List<RegionInfo>> assignment = new HashMap<>();
        for (ServerName sn : admin.getRegionServers()) {
            assignment.put(sn, admin.getRegions(sn));
        }
        return new SnapshotBuilder(EstimationConfig.DEFAULT, 8).build(assignment, admin.getClusterMetrics(),
                new RequestRates(), reports, Instant.now());
    }

    /** Max/Mean and Δ averaged over {@code windows} successive report windows starting after {@code since}. */
    Balance measure(Instant since, int windows) throws IOException {
        double cpu = 0;
        double disk = 0;
        double delta = 0;
        Instant from = since;
        for (int i = 0; i < windows; i++) {
            Map<String, LoadReport> r = freshReports(from);
            Balance b = Planner.builder().build().estimate(snapshot(r).snapshot()).balance();
            cpu += b.cpuMaxOverMean();
            disk += b.diskMaxOverMean();
            delta += b.imbalanceDegree();
            from = Instant.ofEpochMilli(r.values().stream().mapToLong(LoadReport::updatedAtMillis).max().orElseThrow());
        }
        return new Balance(cpu / windows, disk / windows, delta / windows);
    }
}
