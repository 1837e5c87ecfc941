package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.hbase.LibraConfig;
import io.libra.hbase.reporter.LoadReport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.RegionPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LibraLoadBalancerTest {
    private final SnapshotMetrics cluster = new SnapshotMetrics(Skewed.snapshot());
    private LibraLoadBalancer balancer;

    private LibraLoadBalancer balancer(Configuration conf, ReportSource source) throws Exception {
        balancer = new LibraLoadBalancer();
        balancer.setReportSource(source);
        balancer.setMasterServices(MasterStub.of(conf));
        balancer.initialize();
        balancer.updateClusterMetrics(cluster.first);
        balancer.updateClusterMetrics(cluster.second);
        return balancer;
    }

    private static Configuration conf(boolean dryRun) {
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        conf.setBoolean(LibraConfig.DRY_RUN, dryRun);
        return conf;
    }

    private List<RegionPlan> balance() throws Exception {
        Map<TableName, Map<ServerName, List<RegionInfo>>> load = new HashMap<>();
        load.put(HConstants.ENSEMBLE_TABLE_NAME, cluster.assignment);
        return balancer.balanceCluster(load);
    }

    @AfterEach
    void stop() {
        BalanceRequestContext.end();
        if (balancer != null) {
            balancer.stop("test over");
        }
    }

    @Test
    void movesRegionsOffTheHotServersWhenExecuting() throws Exception {
        balancer(conf(false), (servers, cm) -> cluster.reports);
        List<String[]> moves = cluster.moves(balance());
        assertThat(moves).isNotEmpty();
        assertThat(moves).allSatisfy(m -> assertThat(m[1]).isIn("rs-1", "rs-2"));
        assertThat(balancer.config().maxMovesPerRun()).isGreaterThanOrEqualTo(moves.size());
    }

    @Test
    void dryRunByDefaultReturnsNoMoves() throws Exception {
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        balancer(conf, (servers, cm) -> cluster.reports);
        assertThat(balancer.config().dryRun()).isTrue();
        assertThat(balance()).isEmpty();
    }

    @Test
    void adminDryRunReturnsTheMovesEvenWhenLibraIsInDryRun() throws Exception {
        balancer(conf(true), (servers, cm) -> cluster.reports);
        BalanceRequestContext.begin(true);
        assertThat(balance()).isNotEmpty();
    }

    @Test
    void capsMovesPerRun() throws Exception {
        Configuration conf = conf(false);
        conf.setInt(LibraConfig.MAX_MOVES, 1);
        balancer(conf, (servers, cm) -> cluster.reports);
        assertThat(balance()).hasSize(1);
    }

    @Test
    void missingReportsAreEstimatedFromCounters() throws Exception {
        Map<String, LoadReport> some = new HashMap<>(cluster.reports);
        some.remove(cluster.serverOfNode.get("rs-3").getServerName());
        balancer(conf(false), (servers, cm) -> some);
        assertThat(balance()).isNotEmpty();
        assertThat(balancer.lastSnapshot().estimatedNodes()).containsExactly(cluster.serverOfNode.get("rs-3").getServerName());
    }

    @Test
    void aServerWithoutReportIsNeverADestinationNorTakenForACold() throws Exception {
        // rs-3 and rs-4 are the cold ones; without rs-4's report it must not receive regions
        Map<String, LoadReport> some = new HashMap<>(cluster.reports);
        String rs4 = cluster.serverOfNode.get("rs-4").getServerName();
        some.remove(rs4);
        balancer(conf(false), (servers, cm) -> some);
        List<String[]> moves = cluster.moves(balance());
        assertThat(moves).isNotEmpty();
        assertThat(moves).noneSatisfy(m -> assertThat(m[2]).isEqualTo("rs-4"));
        io.libra.core.model.ClusterSnapshot snap = balancer.lastSnapshot().snapshot();
        double reportedMeanCpu = some.values().stream().mapToDouble(LoadReport::cpuUsage).average().orElseThrow();
        assertThat(snap.node(rs4).orElseThrow().cpuUsage()).isGreaterThanOrEqualTo(reportedMeanCpu);
    }

    @Test
    void eachRsGroupKeepsItsOwnWindowSoTheGuardComparesLikeWithLike() throws Exception {
        // RSGroupBasedLoadBalancer calls the balancer once per group with that group's servers only
        Configuration conf = conf(true);
        balancer(conf, (servers, cm) -> cluster.reports);
        Map<ServerName, List<RegionInfo>> g1 = new HashMap<>();
        Map<ServerName, List<RegionInfo>> g2 = new HashMap<>();
        cluster.assignment.forEach((sn, regions) -> {
            String node = cluster.nodeOfServer.get(sn.getServerName());
            (node.equals("rs-1") || node.equals("rs-3") ? g1 : g2).put(sn, regions);
        });
        for (int round = 0; round < 3; round++) {
            for (Map<ServerName, List<RegionInfo>> group : List.of(g1, g2)) {
                balancer.balanceCluster(Map.of(HConstants.ENSEMBLE_TABLE_NAME, group));
                assertThat(balancer.lastSnapshot().servers()).hasSize(2);
                assertThat(balancer.lastResult().plan().status())
                        .isNotEqualTo(io.libra.core.plan.PlanStatus.SUSPENDED);
                assertThat(balancer.lastResult().plan().actions()).as("round %d", round).isNotEmpty();
            }
        }
    }

    @Test
    void staleReportsCountAsMissing() throws Exception {
        Map<String, LoadReport> stale = new HashMap<>();
        cluster.reports.forEach((k, r) -> stale.put(k, new LoadReport(r.serverName(), 1L, r.windowSeconds(),
                r.cpuCores(), r.cpuUsage(), r.cpuSource(), r.diskReadBytesPerSec(), r.diskWriteBytesPerSec(),
                r.diskSource(), r.regionRates())));
        balancer(conf(false), (servers, cm) -> stale);
        balance();
        assertThat(balancer.lastSnapshot().estimatedNodes()).hasSize(4);
    }

    @Test
    void neverThrowsOutOfTheBalancer() throws Exception {
        balancer(conf(false), (servers, cm) -> {
            throw new IllegalStateException("reporter exploded");
        });
        assertThat(balance()).isEmpty();
    }

    @Test
    void rereadsConfigurationOnChangeAndKeepsDefaultsForBadValues() throws Exception {
        balancer(conf(false), (servers, cm) -> cluster.reports);
        Configuration changed = conf(false);
        changed.set(LibraConfig.LAMBDA, "0.2");
        changed.set(LibraConfig.STRATEGY, "no-such-strategy");
        changed.set(LibraConfig.MAX_MOVES, "-3");
        balancer.onConfigurationChange(changed);
        assertThat(balancer.config().lambda()).isEqualTo(0.2);
        assertThat(balancer.config().strategy()).isEqualTo("libra");
        assertThat(balancer.config().maxMovesPerRun()).isEqualTo(LibraConfig.DEFAULT.maxMovesPerRun());
    }
}
