package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.core.plan.Balance;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.balancer.LibraLoadBalancer;
import io.libra.hbase.reporter.LoadReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.BalancerDecision;
import org.apache.hadoop.hbase.client.LogEntry;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.ServerType;
import org.apache.hadoop.hbase.master.balancer.StochasticLoadBalancer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Libra as the master's balancer of a real MiniHBaseCluster under a skewed workload, then (tag
 * {@value #COMPARISON}, left out of the default build: they measure HBase's own balancer, 2-3
 * minutes, and assert nothing of Libra's) the same workload under HBase's
 * StochasticLoadBalancer; the results are written side by side to
 * {@code target/hbase-side-by-side.md}. With the comparison:
 * {@code ./mvnw -B -pl integration-tests/hbase-it verify -Dit.test=BalancerSideBySideIT -Dit.excludedGroups=none}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BalancerSideBySideIT {
    private static final int MEASURED_WINDOWS = 3;
    private static final int MAX_ROUNDS = 4;
    private static final int HISTORY_REPORTS = 3;
    private static final Path RESULTS = Path.of("target", "hbase-side-by-side.md");
    static final String COMPARISON = "slb-comparison";

    private final Teardown started = new Teardown();
    private MiniCluster cluster;
    private SkewedWorkload workload;
    private LoadMeter meter;
    private final List<String> results = new ArrayList<>();

    @BeforeAll
    void startLibraCluster() throws Exception {
        // Libra at its defaults (λ 0.05, 3 history windows); only the fluctuation guard is off (MiniCluster)
        cluster = started.add(MiniCluster.start(LibraLoadBalancer.class, Map.of()));
        startWorkload();
    }

    private void startWorkload() throws Exception {
        workload = started.add(new SkewedWorkload(cluster.util.getConnection()));
        workload.createTable(cluster.admin());
        cluster.awaitNoRegionsInTransition();
        workload.load();
        workload.start();
        meter = new LoadMeter(cluster.admin(), MiniCluster.REGION_SERVERS);
    }

    @AfterAll
    void stop() throws Exception {
        started.close();
        Files.createDirectories(RESULTS.getParent());
        List<String> table = new ArrayList<>();
        table.add("| balancer (maxRunningTime 5 s for the SLB) | moves | balance runs | CPU Max/Mean before → after "
                + "| disk Max/Mean before → after | Δ before → after |");
        table.add("|---|---|---|---|---|---|");
        table.addAll(results);
        Files.write(RESULTS, table);
        table.forEach(System.out::println);
    }

    @Test
    @Order(1)
    void everyRegionServerPublishesCpuDiskAndRegionTrafficOnItsJmx() throws Exception {
        meter.freshReports(Instant.now());
        ObjectMapper json = new ObjectMapper();
        HttpClient http = HttpClient.newHttpClient();
        for (Map.Entry<ServerName, ServerMetrics> e : cluster.admin().getClusterMetrics().getLiveServerMetrics().entrySet()) {
            URI uri = URI.create("http://127.0.0.1:" + e.getValue().getInfoServerPort()
                    + "/jmx?qry=io.libra:type=RegionServerLoad,*");
            JsonNode beans = json.readTree(http.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).path("beans");
            JsonNode own = null;
            for (JsonNode b : beans) {
                if (b.path("ServerName").asText().equals(e.getKey().getServerName())) {
                    own = b;
                }
            }
            assertThat(own).as("Libra bean of %s", e.getKey()).isNotNull();
            assertThat(own.path("CpuSource").asText()).isEqualTo("threads"); // four RegionServers share this JVM
            assertThat(own.path("DiskSource").asText()).isEqualTo("user-bytes");
            assertThat(own.path("CpuCores").asDouble()).isPositive();
            for (RegionInfo ri : cluster.admin().getRegions(e.getKey())) {
                if (ri.getTable().equals(SkewedWorkload.TABLE)) {
                    assertThat(own.has("region." + ri.getEncodedName() + ".readOps")).isTrue();
                }
            }
        }
        LoadReport cpuHot = meter.reports().get(workload.cpuServer.getServerName());
        LoadReport diskHot = meter.reports().get(workload.diskServer.getServerName());
        assertThat(cpuHot.cpuUsage()).isPositive();
        assertThat(diskHot.diskWriteBytesPerSec()).isGreaterThan(cpuHot.diskWriteBytesPerSec());
        double hotReads = cpuHot.regionRates().values().stream().mapToDouble(r -> r[0]).sum();
        assertThat(hotReads).isGreaterThan(diskHot.regionRates().values().stream().mapToDouble(r -> r[0]).sum());
    }

    @Test
    @Order(2)
    void dryRunReturnsMovesWithoutMovingAndRecordsTheDecision() throws Exception {
        cluster.awaitNoRegionsInTransition();
        meter.freshReports(Instant.now());
        Map<ServerName, List<RegionInfo>> before = assignment();
        BalanceResponse r = cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build());
        assertThat(r.isBalancerRan()).isTrue();
        // HBase 2.6.4's client copies movesExecuted into movesCalculated (ProtobufUtil.toBalanceResponse),
        // so the moves a dry run calculated are read from the decision log instead
        assertThat(r.getMovesExecuted()).isZero();
        assertThat(assignment()).isEqualTo(before);
        List<LogEntry> entries = cluster.admin().getLogEntries(null, "BALANCER_DECISION", ServerType.MASTER, 10, null);
        assertThat(entries).isNotEmpty();
        assertThat(entries).anySatisfy(e -> {
            BalancerDecision d = (BalancerDecision) e;
            assertThat(d.getInitialFunctionCosts()).startsWith("Libra:");
            assertThat(d.getRegionPlans()).anyMatch(p -> p.contains("destination:") && p.contains("critical, passed"));
            assertThat(d.getRegionPlans().get(0)).contains("dry run requested by the caller");
        });
    }

    @Test
    @Order(3)
    void missingOrStaleReportsAreEstimatedFromCountersWithoutFailing() throws Exception {
        LibraLoadBalancer libra = cluster.libra();
        Configuration unreachable = new Configuration(cluster.conf());
        unreachable.setInt(LibraConfig.REPORTER_PORT, 1); // nothing listens there
        libra.onConfigurationChange(unreachable);
        try {
            cluster.awaitNoRegionsInTransition();
            BalanceResponse r = cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build());
            assertThat(r.isBalancerRan()).isTrue();
            assertThat(libra.lastSnapshot().estimatedNodes()).hasSize(MiniCluster.REGION_SERVERS);

            Configuration stale = new Configuration(cluster.conf());
            stale.setLong(LibraConfig.STALE_AFTER_MS, 1);
            libra.onConfigurationChange(stale);
            assertThat(cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build()).isBalancerRan()).isTrue();
            assertThat(libra.lastSnapshot().estimatedNodes()).hasSize(MiniCluster.REGION_SERVERS);
        } finally {
            libra.onConfigurationChange(cluster.conf());
        }
        cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build());
        assertThat(libra.lastSnapshot().estimatedNodes()).isEmpty();
    }

    @Test
    @Order(4)
    void libraMovesRegionsAndImprovesBothDimensions() throws Exception {
        Outcome o = balanceRounds("Libra (LibraLoadBalancer)");
        assertThat(o.moves).isPositive();
        assertThat(o.after.cpuMaxOverMean()).isLessThan(o.before.cpuMaxOverMean());
        assertThat(o.after.diskMaxOverMean()).isLessThan(o.before.diskMaxOverMean());
        assertIntact();
        // the master's Micrometer meters, on the JMX of this JVM (the master runs in it)
        javax.management.MBeanServer mbs = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName executed = mbs.queryNames(new javax.management.ObjectName("libra:*"), null).stream()
                .filter(n -> n.toString().contains("libraHbaseMovesExecuted")).findFirst().orElseThrow();
        assertThat(((Number) mbs.getAttribute(executed, "Count")).longValue()).isGreaterThanOrEqualTo(o.moves);
    }

    @Test
    @Order(5)
    @Tag(COMPARISON)
    void theStochasticLoadBalancerWithDefaultsOnTheSameWorkloadIsRecorded() throws Exception {
        restartWith(Map.of());
        Outcome o = balanceRounds("HBase StochasticLoadBalancer, defaults");
        assertIntact();
        assertThat(o.before.cpuMaxOverMean()).isGreaterThan(1.5); // the workload was as skewed as for Libra
    }

    @Test
    @Order(6)
    @Tag(COMPARISON)
    void theStochasticLoadBalancerTunedForLoadIsRecorded() throws Exception {
        restartWith(Map.of("hbase.master.balancer.stochastic.readRequestCost", "500",
                "hbase.master.balancer.stochastic.writeRequestCost", "500",
                "hbase.master.balancer.stochastic.minCostNeedBalance", "0"));
        Outcome o = balanceRounds("HBase StochasticLoadBalancer, read/write request cost 500, minCostNeedBalance 0");
        assertIntact();
        assertThat(o.before.cpuMaxOverMean()).isGreaterThan(1.5);
    }

    private void restartWith(Map<String, String> conf) throws Exception {
        started.close();
        cluster = started.add(MiniCluster.start(StochasticLoadBalancer.class, conf));
        startWorkload();
    }

    private record Outcome(Balance before, Balance after, int moves) {
    }

    /** Balances until the balancer has nothing more to move (at most a few runs), then measures. */
    private Outcome balanceRounds(String name) throws Exception {
        cluster.admin().balancerSwitch(true, true);
        cluster.awaitNoRegionsInTransition();
        warmUpLoadHistory();
        Balance before = meter.measure(Instant.now(), MEASURED_WINDOWS);
        int moves = 0;
        int runs = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            cluster.awaitNoRegionsInTransition();
            meter.freshReports(Instant.now());
            BalanceResponse r = cluster.admin().balance(BalanceRequest.defaultInstance());
            runs++;
            moves += r.getMovesExecuted();
            cluster.awaitNoRegionsInTransition();
            if (r.getMovesExecuted() == 0) {
                break;
            }
        }
        Balance after = meter.measure(Instant.now(), MEASURED_WINDOWS);
        results.add(String.format(Locale.ROOT, "| %s | %d | %d | %.2f → %.2f | %.2f → %.2f | %.2f → %.2f |", name, moves,
                runs, before.cpuMaxOverMean(), after.cpuMaxOverMean(), before.diskMaxOverMean(),
                after.diskMaxOverMean(), before.imbalanceDegree(), after.imbalanceDegree()));
        System.out.println(results.get(results.size() - 1));
        return new Outcome(before, after, moves);
    }

    /**
     * Dry runs feed the balancer several ClusterMetrics a report interval apart, as the master's
     * status chore would over minutes: the StochasticLoadBalancer derives request rates from the
     * growth between remembered reports and sees no request load at all from a single one.
     */
    private void warmUpLoadHistory() throws Exception {
        for (int i = 0; i < HISTORY_REPORTS; i++) {
            meter.freshReports(Instant.now());
            cluster.admin().balance(BalanceRequest.newBuilder().setDryRun(true).build());
        }
    }

    /** No region lost or in transition, every table region online on a live server, every row readable. */
    private void assertIntact() throws Exception {
        cluster.awaitNoRegionsInTransition();
        int online = 0;
        for (List<RegionInfo> regions : assignment().values()) {
            online += (int) regions.stream().filter(ri -> ri.getTable().equals(SkewedWorkload.TABLE)).count();
        }
        List<RegionInfo> tableRegions = cluster.admin().getRegions(SkewedWorkload.TABLE);
        assertThat(online).isEqualTo(tableRegions.size()).isGreaterThanOrEqualTo(SkewedWorkload.REGIONS);
        assertThat(workload.unreadable()).isEmpty();
    }

    private Map<ServerName, List<RegionInfo>> assignment() throws Exception {
        Map<ServerName, List<RegionInfo>> m = new HashMap<>();
        for (ServerName sn : cluster.admin().getRegionServers()) {
            List<RegionInfo> regions = new ArrayList<>(cluster.admin().getRegions(sn));
            regions.sort(RegionInfo.COMPARATOR);
            m.put(sn, regions);
        }
        return m;
    }
}
