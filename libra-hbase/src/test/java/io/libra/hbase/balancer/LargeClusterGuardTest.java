package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.PlanStatus;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.reporter.LoadReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 500 RegionServers, 8 regions each, 25 of them twice as loaded, re-measured every run with the
 * noise of real windows: every server's CPU and disk off by a few percent (σ 4 %), and each
 * window about 1 % of the servers in a burst of +40 % (a compaction, a scan). The paper's guard
 * (any node moving by more than 20 % of the mean suspends planning) would suspend nearly every
 * run at this size; the balancer's guard holds the bursting servers still and plans the rest.
 */
class LargeClusterGuardTest {
    private static final int SERVERS = 500;
    private static final int RUNS = 10;
    private LibraLoadBalancer balancer;

    @AfterEach
    void stop() {
        if (balancer != null) {
            balancer.stop("test over");
        }
    }

    private static ClusterSnapshot cluster() {
        List<Node> nodes = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        for (int n = 0; n < SERVERS; n++) {
            double factor = n < 25 ? 2.0 : 1.0;
            double cpu = 0;
            double disk = 0;
            for (int i = 0; i < 8; i++) {
                RegionCounters c = new RegionCounters(200 * factor, 50 * factor, 200 * factor * 1000, 50 * factor * 4000);
                cpu += (c.readOps() + 1.63 * c.writeOps()) * 1e-3;
                disk += c.readBytes() + 3 * c.writeBytes();
                int k = n * 8 + i;
                String start = k == 0 ? "" : String.format(Locale.ROOT, "%06x", k);
                String end = k == SERVERS * 8 - 1 ? "" : String.format(Locale.ROOT, "%06x", k + 1);
                regions.add(new Region("r-" + k, "usertable", new KeyRange(start, end), "rs-" + n, 1e9, c));
            }
            nodes.add(new Node("rs-" + n, 16, cpu, disk));
        }
        return new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions);
    }

    /** One window as the RegionServers would report it. */
    private static Map<String, LoadReport> noisy(Map<String, LoadReport> clean, SplittableRandom random) {
        Map<String, LoadReport> out = new HashMap<>();
        clean.forEach((server, r) -> {
            double burst = random.nextDouble() < 0.01 ? 1.4 : 1.0;
            double cpu = r.cpuUsage() * burst * (1 + 0.04 * random.nextGaussian());
            double disk = r.diskReadBytesPerSec() * burst * (1 + 0.04 * random.nextGaussian());
            out.put(server, new LoadReport(r.serverName(), System.currentTimeMillis(), r.windowSeconds(), r.cpuCores(),
                    Math.max(0, cpu), r.cpuSource(), Math.max(0, disk), 0, r.diskSource(), r.regionRates()));
        });
        return out;
    }

    private static ClusterSnapshot asSnapshot(Map<String, LoadReport> reports) {
        List<Node> nodes = new ArrayList<>();
        reports.forEach((s, r) -> nodes.add(new Node(s, 16, r.cpuUsage(), r.diskBytesPerSec())));
        return new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, List.of());
    }

    @Test
    void theGuardDoesNotSuspendBalancingForeverOn500Servers() throws Exception {
        SnapshotMetrics cluster = new SnapshotMetrics(cluster());
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        conf.setBoolean(LibraConfig.DRY_RUN, true); // nothing moves, so every run is compared with the one before
        balancer = new LibraLoadBalancer();
        SplittableRandom random = new SplittableRandom(7);
        Map<String, LoadReport>[] window = new Map[1];
        balancer.setReportSource((servers, cm) -> window[0]);
        balancer.setMasterServices(MasterStub.of(conf));
        balancer.initialize();
        balancer.updateClusterMetrics(cluster.first);
        balancer.updateClusterMetrics(cluster.second);
        Map<TableName, Map<ServerName, List<RegionInfo>>> load = Map.of(HConstants.ENSEMBLE_TABLE_NAME, cluster.assignment);

        int planned = 0;
        int paperGuardSuspends = 0;
        ClusterSnapshot before = null;
        for (int run = 0; run < RUNS; run++) {
            window[0] = noisy(cluster.reports, random);
            balancer.balanceCluster(load);
            if (balancer.lastResult().plan().status() != PlanStatus.SUSPENDED) {
                planned++;
                assertThat(balancer.lastResult().plan().actions()).as("run %d plans moves off the hot servers: %s", run,
                        balancer.lastResult().plan().detail())
                        .isNotEmpty();
            }
            ClusterSnapshot now = asSnapshot(window[0]);
            if (before != null && new FluctuationGuard(0.2).check(before, now).isPresent()) {
                paperGuardSuspends++;
            }
            before = now;
        }
        assertThat(paperGuardSuspends).as("the paper's all-nodes guard at this size").isGreaterThanOrEqualTo(RUNS - 3);
        assertThat(planned).as("runs that planned despite the noise").isGreaterThanOrEqualTo(RUNS - 1);
    }
}
