package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.balancer.LibraLoadBalancer;
import io.libra.hbase.reporter.LibraRegionServerReporter;
import io.libra.hbase.reporter.LoadReport;
import io.libra.hbase.reporter.LoadReportMBean;
import io.libra.it.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.RegionServerCoprocessorHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.LoggerFactory;

/**
 * Libra in by-table mode ({@code hbase.master.loadbalance.bytable=true}) on a real
 * MiniHBaseCluster with two tables of different load shapes, each packed onto one RegionServer;
 * then, on the same cluster, a RegionServer whose reporter stops publishing, and a master failover.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ByTableIT {
    private static final int MAX_ROUNDS = 4;
    private static final int MEASURED_WINDOWS = 2;

    private final Teardown started = new Teardown();
    private MiniCluster cluster;
    private TwoTableWorkload workload;
    private LoadMeter meter;
    private ServerName cpuServer;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeAll
    void start() throws Exception {
        // moves only: splits are BalancerSideBySideIT's subject
        cluster = started.add(MiniCluster.start(LibraLoadBalancer.class, Map.of(
                HConstants.HBASE_MASTER_LOADBALANCE_BYTABLE, "true", LibraConfig.SPLITTING, "false")));
        workload = started.add(new TwoTableWorkload(cluster.util.getConnection()));
        workload.createTables(cluster.admin());
        cluster.awaitNoRegionsInTransition();
        List<ServerName> servers = new ArrayList<>(cluster.admin().getRegionServers());
        servers.sort(null);
        cpuServer = servers.get(0);
        workload.pack(cluster.admin(), cpuServer, servers.get(1), servers.subList(2, servers.size()));
        cluster.awaitNoRegionsInTransition();
        workload.load();
        workload.start();
        meter = new LoadMeter(cluster.admin(), MiniCluster.REGION_SERVERS);
        Logger balancerLog = (Logger) LoggerFactory.getLogger(LibraLoadBalancer.class);
        balancerLog.addAppender(log);
        started.add(() -> balancerLog.detachAppender(log));
        log.start();
    }

    @AfterAll
    void stop() throws Exception {
        started.close();
    }

    @Test
    @Order(1)
    void eachTableIsBalancedOnItsOwnWithPlacementKept() throws Exception {
        Map<TableName, Double> before = spread();
        assertThat(before.get(TwoTableWorkload.CPU)).as("CPU table packed on one server").isGreaterThan(3.0);
        assertThat(before.get(TwoTableWorkload.DISK)).as("disk table packed on one server").isGreaterThan(3.0);
        Map<String, ServerName> system = systemRegions();
        int moves = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            cluster.awaitNoRegionsInTransition();
            meter.freshReports(Instant.now());
            BalanceResponse r = cluster.admin().balance(BalanceRequest.defaultInstance());
            moves += r.getMovesExecuted();
            cluster.awaitNoRegionsInTransition();
            if (r.getMovesExecuted() == 0) {
                break;
            }
        }
        Map<TableName, Double> after = spread();
        System.out.printf("ByTableIT: %d moves; CPU table Max/Mean %.2f -> %.2f, disk table %.2f -> %.2f%n", moves,
                before.get(TwoTableWorkload.CPU), after.get(TwoTableWorkload.CPU), before.get(TwoTableWorkload.DISK),
                after.get(TwoTableWorkload.DISK));
        assertThat(moves).isPositive();
        assertThat(after.get(TwoTableWorkload.CPU)).isLessThan(before.get(TwoTableWorkload.CPU));
        assertThat(after.get(TwoTableWorkload.DISK)).isLessThan(before.get(TwoTableWorkload.DISK));
        assertThat(systemRegions()).as("system tables pinned").isEqualTo(system);
        assertReplicasApart();
        assertThat(cluster.libra().lastResult().plan().estimation().windows()).as("one history for all tables, kept across runs")
                .isGreaterThan(1);
        assertThat(decisionLines()).anyMatch(l -> l.startsWith("estimation: "))
                .anyMatch(l -> l.startsWith("table cputable:"))
                .anyMatch(l -> l.startsWith("table disktable:"));
        assertThat(workload.unreadable()).isEmpty();
    }

    @Test
    @Order(2)
    void aServerWithoutAFreshReportIsNeverADestination() throws Exception {
        ServerName silent = cluster.admin().getRegionServers().stream().filter(sn -> !sn.equals(cpuServer))
                .sorted().reduce((a, b) -> b).orElseThrow();
        repackCpuTable(silent);
        Set<String> onSilent = regionsOn(silent);
        stopReporter(silent);
        Instant since = Instant.now();
        Poll.until(Duration.ofSeconds(60), "fresh reports from the other RegionServers", () -> {
            Map<String, LoadReport> r = meter.reports();
            return r.size() == MiniCluster.REGION_SERVERS - 1 && !r.containsKey(silent.getServerName()) && r.values()
                    .stream().allMatch(x -> x.updatedAtMillis() - x.windowSeconds() * 1000 >= since.toEpochMilli());
        });
        long done = workload.rounds();
        Poll.until(Duration.ofSeconds(120), "the workload makes progress", () -> workload.rounds() > done + 2);
        log.list.clear();
        for (int i = 0; i < 2; i++) {
            cluster.awaitNoRegionsInTransition();
            assertThat(cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build()).isBalancerRan())
                    .isTrue();
            assertThat(cluster.libra().lastSnapshot().estimatedNodes()).containsExactly(silent.getServerName());
        }
        List<String> lines = log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).filteredOn(l -> l.contains("no fresh CPU/disk report from " + silent.getServerName()))
                .as("logged once").hasSize(1);
        assertThat(lines).as("the dry runs planned moves").anyMatch(l -> l.contains("destination:"));
        assertThat(lines).noneMatch(l -> l.contains("destination: " + silent.getServerName()));
        assertThat(decisionLines()).anyMatch(l -> l.startsWith("no fresh report from " + silent.getServerName()));
        assertThat(estimatedGauge()).isEqualTo(1.0);
        // modelled from the master's request counters, every table's rates are there, none wiped by another's run
        Set<String> served = new HashSet<>();
        Set<String> counted = new HashSet<>();
        for (io.libra.core.model.Region r : cluster.libra().lastSnapshot().snapshot().regions()) {
            RegionInfo ri = cluster.libra().lastSnapshot().regions().get(r.id());
            if (r.node().equals(silent.getServerName()) && RegionReplicaUtil.isDefaultReplica(ri)
                    && !ri.getTable().isSystemTable()) {
                served.add(ri.getTable().getNameAsString());
                if (r.counters().readOps() + r.counters().writeOps() > 0) {
                    counted.add(ri.getTable().getNameAsString());
                }
            }
        }
        assertThat(served).isNotEmpty();
        assertThat(counted).isEqualTo(served);
        cluster.awaitNoRegionsInTransition();
        BalanceResponse real = cluster.admin().balance(BalanceRequest.defaultInstance());
        cluster.awaitNoRegionsInTransition();
        assertThat(real.getMovesExecuted()).isPositive();
        assertThat(onSilent).as("no region moved to %s", silent).containsAll(regionsOn(silent));
        assertThat(workload.unreadable()).isEmpty();
    }

    @Test
    @Order(3)
    void aBackupMasterTakesOverTheBalancersHistory() throws Exception {
        MiniHBaseCluster hbase = cluster.util.getMiniHBaseCluster();
        HMaster old = cluster.master();
        LibraLoadBalancer before = cluster.libra();
        hbase.startMaster();
        hbase.stopMaster(old.getServerName());
        hbase.waitForMasterToStop(old.getServerName(), 120_000);
        Poll.until(Duration.ofSeconds(180), "the backup master active and initialised", () -> {
            HMaster m = hbase.getMaster();
            return m != null && m != old && m.isInitialized();
        });
        cluster.awaitNoRegionsInTransition();
        log.list.clear();
        assertThat(cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build()).isBalancerRan()).isTrue();
        assertThat(cluster.libra()).isNotSameAs(before);
        assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(l -> l.contains("taken over from the saved one"));
        assertThat(cluster.libra().lastResult().plan().estimation().windows()).as("the old master's windows and this one")
                .isGreaterThan(1);
    }

    /** Per table, Max/Mean over the servers of its traffic as the reporters measure it, averaged over windows. */
    private Map<TableName, Double> spread() throws Exception {
        long done = workload.rounds();
        Poll.until(Duration.ofSeconds(120), "the workload makes progress", () -> workload.rounds() > done + 2);
        Map<TableName, Double> sum = new HashMap<>();
        Instant from = Instant.now();
        for (int w = 0; w < MEASURED_WINDOWS; w++) {
            Map<String, LoadReport> reports = meter.freshReports(from);
            sum.merge(TwoTableWorkload.CPU, maxOverMean(reports, TwoTableWorkload.CPU, LoadReportMBean.READ_OPS), Double::sum);
            sum.merge(TwoTableWorkload.DISK, maxOverMean(reports, TwoTableWorkload.DISK, LoadReportMBean.WRITE_BYTES),
                    Double::sum);
            from = Instant.ofEpochMilli(reports.values().stream().mapToLong(LoadReport::updatedAtMillis).max().orElseThrow());
        }
        sum.replaceAll((t, s) -> s / MEASURED_WINDOWS);
        return sum;
    }

    private double maxOverMean(Map<String, LoadReport> reports, TableName table, int field) throws Exception {
        Set<String> regions = cluster.admin().getRegions(table).stream().map(RegionInfo::getEncodedName)
                .collect(Collectors.toSet());
        double max = 0;
        double total = 0;
        for (LoadReport r : reports.values()) {
            double load = r.regionRates().entrySet().stream().filter(e -> regions.contains(e.getKey()))
                    .mapToDouble(e -> e.getValue()[field]).sum();
            max = Math.max(max, load);
            total += load;
        }
        assertThat(total).as("%s traffic measured", table).isPositive();
        return max / (total / reports.size());
    }

    private Map<String, ServerName> systemRegions() throws Exception {
        Map<String, ServerName> at = new HashMap<>();
        for (ServerName sn : cluster.admin().getRegionServers()) {
            cluster.admin().getRegions(sn).stream().filter(ri -> ri.getTable().isSystemTable())
                    .forEach(ri -> at.put(ri.getEncodedName(), sn));
        }
        return at;
    }

    private void assertReplicasApart() throws Exception {
        Map<String, List<ServerName>> copies = MiniCluster.copiesOnline(cluster.admin(), TwoTableWorkload.CPU);
        assertThat(copies.values().stream().mapToInt(List::size).sum()).isEqualTo(2 * TwoTableWorkload.REGIONS);
        assertThat(copies.values()).as("a primary and its replica on distinct servers")
                .allSatisfy(s -> assertThat(new HashSet<>(s)).hasSize(2));
    }

    /**
     * Packs the CPU table's primaries back onto one server (beside no replica of theirs), so
     * there is load to move; those on {@code keep} stay.
     */
    private void repackCpuTable(ServerName keep) throws Exception {
        cluster.awaitNoRegionsInTransition();
        Set<String> replicasThere = new HashSet<>();
        cluster.admin().getRegions(cpuServer).stream().filter(ri -> !RegionReplicaUtil.isDefaultReplica(ri))
                .forEach(ri -> replicasThere.add(RegionReplicaUtil.getRegionInfoForDefaultReplica(ri).getEncodedName()));
        for (ServerName sn : cluster.admin().getRegionServers()) {
            for (RegionInfo ri : cluster.admin().getRegions(sn)) {
                if (!sn.equals(cpuServer) && !sn.equals(keep) && ri.getTable().equals(TwoTableWorkload.CPU)
                        && RegionReplicaUtil.isDefaultReplica(ri) && !replicasThere.contains(ri.getEncodedName())) {
                    cluster.admin().move(ri.getEncodedNameAsBytes(), cpuServer);
                }
            }
        }
        cluster.awaitNoRegionsInTransition();
    }

    private Set<String> regionsOn(ServerName sn) throws Exception {
        return cluster.admin().getRegions(sn).stream().map(RegionInfo::getEncodedName).collect(Collectors.toSet());
    }

    /** Stops the Libra reporter of one RegionServer, as a RegionServer whose reporter failed: its report disappears. */
    private void stopReporter(ServerName sn) throws Exception {
        RegionServerCoprocessorHost host = cluster.util.getMiniHBaseCluster().getRegionServer(sn)
                .getRegionServerCoprocessorHost();
        String name = LibraRegionServerReporter.class.getName();
        host.findCoprocessor(name).stop(host.findCoprocessorEnvironment(name));
    }

    private List<String> decisionLines() throws Exception {
        return MiniCluster.decisionLines(cluster.admin());
    }

    private double estimatedGauge() throws Exception {
        javax.management.MBeanServer mbs = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName gauge = mbs.queryNames(new javax.management.ObjectName("libra:*"), null).stream()
                .filter(n -> n.toString().contains("libraHbaseNodesEstimated")).findFirst().orElseThrow();
        return ((Number) mbs.getAttribute(gauge, "Value")).doubleValue();
    }
}
