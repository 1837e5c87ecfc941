package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.plan.Balance;
import io.libra.it.Poll;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Libra balancing a real cluster on the deployed layout: the MiniHBaseCluster runs in its own JVM
 * whose classpath is HBase's jars plus only the shaded jar ({@link DeployedClusterMain}), and this
 * JVM is only its client. The skewed workload runs through hbase-client, the master's real balance
 * runs move regions (after a dry run that moves none), balance is measured independently (the RegionServers' own request counters
 * and the reporters' host figures), and every row written reads back. Then one RegionServer's
 * reporter is stopped inside the cluster's JVM: it is never made a destination. Last, a second
 * table of one region too hot to move whole (with a replica) is split where its load divides, and
 * the master fails over to a backup, whose balancer takes over the saved history.
 * The cluster balances by table ({@code hbase.master.loadbalance.bytable=true}), as an operator
 * who turned that on runs it, and no client call of the workload may stall on Libra's splits.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeployedClusterIT {
    private static final int MAX_ROUNDS = 6;
    private static final int MEASURED_WINDOWS = 3;

    @TempDir
    Path dir;

    @Test
    void libraFromTheShadedJarAloneBalancesARealCluster() throws Exception {
        Path port = dir.resolve("zk.port");
        Path log = Path.of("target", "deployed-cluster.log").toAbsolutePath(); // kept for a failed run's post-mortem
        // 1536m ran out of heap in RegionServers' batched writes (RSRpcServices.multi) in 2 of 3 clean-clone
        // runs on 2026-11-28; the phase after it then measured Δ 0.0 and moved nothing
        Process cluster = DeployedJvm.start(DeployedClusterMain.class, "2560m", log, port.toString(),
                HConstants.HBASE_MASTER_LOADBALANCE_BYTABLE + "=true");
        try {
            Poll.until(Duration.ofMinutes(3), "the deployed cluster's master ready", () -> {
                if (!cluster.isAlive()) {
                    throw new AssertionError("the cluster JVM ended: " + Files.readString(log, StandardCharsets.UTF_8));
                }
                return Files.exists(port);
            });
            assertThat(Files.readString(log, StandardCharsets.UTF_8)).as("the master's balancer is Libra, from the shaded jar")
                    .containsPattern("DEPLOYED-CLUSTER balancer=" + DeployedClusterMain.BALANCER + " from=\\S*libra-hbase-shaded\\.jar");
            try (Connection c = ConnectionFactory.createConnection(client(Files.readString(port, StandardCharsets.UTF_8)));
                 Admin admin = c.getAdmin(); SkewedWorkload workload = new SkewedWorkload(c)) {
                balance(c, admin, workload);
                aServerWithoutAFreshReportIsNeverADestination(cluster, log, c, admin, workload);
                long t = System.nanoTime();
                workload.stop();
                long stopped = System.nanoTime();
                assertThat(workload.unreadable()).isEmpty();
                System.out.printf("DeployedClusterIT: workload stopped in %d ms (longest round %d ms), %d rows read back in %d ms%n",
                        (stopped - t) / 1_000_000, workload.longestRound().toMillis(), workload.written.size(),
                        (System.nanoTime() - stopped) / 1_000_000);
                // a split of a region back on a server it had just left leaves clients bouncing between two
                // servers' moved-region records for up to 2 min (RegionDepartures); a round takes milliseconds
                assertThat(workload.longestRound()).as("the workload's longest round of client calls").isLessThan(Duration.ofSeconds(30));
                aRegionTooHotToMoveIsSplitWhereItsLoadDivides(c, admin, workload.cpuServer);
                aBackupMasterTakesOverTheHistory(cluster, log, admin);
            }
            cluster.getOutputStream().close();
            assertThat(cluster.waitFor(2, TimeUnit.MINUTES)).as("the cluster JVM stops when told").isTrue();
            assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("DEPLOYED-CLUSTER stopped");
        } finally {
            if (cluster.isAlive()) {
                cluster.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Configuration client(String zkPort) {
        Configuration conf = HBaseConfiguration.create();
        conf.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
        conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, Integer.parseInt(zkPort.trim()));
        return conf;
    }

    private static void balance(Connection c, Admin admin, SkewedWorkload workload) throws Exception {
        int servers = DeployedClusterMain.REGION_SERVERS;
        Poll.until(Duration.ofMinutes(2), "every RegionServer registered", () -> admin.getRegionServers().size() == servers);
        workload.createTable(admin);
        workload.load();
        workload.start();
        LoadMeter meter = new LoadMeter(admin, servers);
        meter.freshReports(Instant.now());
        int hotBefore = hotRegionsOn(c, workload);
        Balance before = meter.measure(Instant.now(), MEASURED_WINDOWS);
        double requestsBefore = requestSpread(admin, meter);
        dryRunMovesNothing(admin);
        int moves = 0;
        List<String> rounds = new ArrayList<>();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            awaitNoRegionsInTransition(admin);
            meter.freshReports(Instant.now());
            BalanceResponse r = admin.balance(BalanceRequest.defaultInstance());
            rounds.add((r.isBalancerRan() ? "ran, " : "did not run, ") + r.getMovesExecuted() + " moves");
            awaitNoRegionsInTransition(admin);
            if (moves > 0 && r.getMovesExecuted() == 0) {
                break; // settled; a first round without moves may only have primed the rates
            }
            moves += r.getMovesExecuted();
        }
        Balance after = meter.measure(Instant.now(), MEASURED_WINDOWS);
        double requestsAfter = requestSpread(admin, meter);
        System.out.printf("DeployedClusterIT: %d moves; Δ %.2f -> %.2f (cpu %.2f -> %.2f, disk %.2f -> %.2f); "
                        + "requests Max/Mean %.2f -> %.2f%n", moves, before.imbalanceDegree(), after.imbalanceDegree(),
                before.cpuMaxOverMean(), after.cpuMaxOverMean(), before.diskMaxOverMean(), after.diskMaxOverMean(),
                requestsBefore, requestsAfter);
        assertThat(moves).as("rounds %s; decision log %s", rounds, MiniCluster.decisionLines(admin)).isPositive();
        assertThat(hotRegionsOn(c, workload)).as("hot regions left the CPU-hot server").isLessThan(hotBefore);
        assertThat(after.imbalanceDegree()).as("by the reporters' host figures").isLessThan(before.imbalanceDegree());
        assertThat(requestsAfter).as("by the RegionServers' own request counters").isLessThan(requestsBefore);
        assertThat(MiniCluster.decisionLines(admin)).as("the master's decision log holds Libra's runs")
                .anyMatch(l -> l.startsWith("estimation: "));
    }

    /**
     * The reporter of one RegionServer (not the hot one) is stopped inside the cluster's JVM; the hot
     * rows' regions are packed back onto the hot server. Once its report is stale, a dry run's
     * decision names it, and the real runs that follow move regions but none onto it.
     */
    private static void aServerWithoutAFreshReportIsNeverADestination(Process cluster, Path log, Connection c,
                                                                     Admin admin, SkewedWorkload workload)
            throws Exception {
        ServerName silent = admin.getRegionServers().stream().filter(sn -> !sn.equals(workload.cpuServer)).sorted()
                .reduce((a, b) -> b).orElseThrow();
        cluster.getOutputStream().write((DeployedClusterMain.STOP_REPORTER + silent.getServerName() + "\n")
                .getBytes(StandardCharsets.UTF_8));
        cluster.getOutputStream().flush();
        Poll.until(Duration.ofMinutes(1), "the reporter on " + silent + " stopped", () -> Files.readString(log,
                StandardCharsets.UTF_8).contains("DEPLOYED-CLUSTER reporter stopped on " + silent.getServerName()));
        packHotRegions(c, admin, workload);
        java.util.Set<String> onSilent = placement(admin).entrySet().stream().filter(e -> e.getValue().equals(silent))
                .map(Map.Entry::getKey).collect(java.util.stream.Collectors.toSet());
        Poll.until(Duration.ofMinutes(2), "a dry run naming " + silent + " as without a fresh report", () -> {
            admin.balance(BalanceRequest.newBuilder().setDryRun(true).build());
            return MiniCluster.decisionLines(admin).stream().anyMatch(l -> l.startsWith("no fresh report from "
                    + silent.getServerName()));
        });
        int moves = 0;
        for (int round = 0; round < 3 && moves == 0; round++) {
            awaitNoRegionsInTransition(admin);
            moves += admin.balance(BalanceRequest.defaultInstance()).getMovesExecuted();
            awaitNoRegionsInTransition(admin);
        }
        System.out.printf("DeployedClusterIT: with %s's report missing, %d moves%n", silent, moves);
        assertThat(moves).as("the hot regions leave the hot server again").isPositive();
        assertThat(onSilent).as("no region moved to %s", silent).containsAll(placement(admin).entrySet().stream()
                .filter(e -> e.getValue().equals(silent)).map(Map.Entry::getKey).toList());
    }

    /**
     * A table of one region whose rows all lie at the low end of its key space, read flat out, its
     * primary on a reported server: the balancer splits it where its sampled load divides.
     */
    private static void aRegionTooHotToMoveIsSplitWhereItsLoadDivides(Connection c, Admin admin, ServerName reported)
            throws Exception {
        try (HotspotWorkload hot = new HotspotWorkload(c)) {
            hot.createAndLoad(admin);
            awaitNoRegionsInTransition(admin);
            org.apache.hadoop.hbase.client.RegionInfo primary = HotspotWorkload.primaries(admin).get(0);
            if (!admin.getRegions(reported).contains(primary)) {
                admin.move(primary.getEncodedNameAsBytes(), reported);
                awaitNoRegionsInTransition(admin);
            }
            hot.start();
            LoadMeter meter = new LoadMeter(admin, DeployedClusterMain.REGION_SERVERS - 1);
            Poll.until(Duration.ofMinutes(3), "Libra to split the hot region", () -> {
                awaitNoRegionsInTransition(admin);
                meter.freshReports(Instant.now());
                admin.balance(BalanceRequest.defaultInstance());
                awaitNoRegionsInTransition(admin);
                return HotspotWorkload.primaries(admin).size() > 1;
            });
            System.out.printf("DeployedClusterIT: the hot region split into %s%n", HotspotWorkload.primaries(admin).stream()
                    .map(ri -> org.apache.hadoop.hbase.util.Bytes.toStringBinary(ri.getStartKey())).toList());
            hot.assertSplitWhereItsLoadDivides(admin);
        }
    }

    /**
     * The active master stops and a backup takes over (inside the cluster's JVM, as on a real
     * cluster): the new master's balancer reads the history the old one saved under the root
     * directory, and its first run plans on the old windows as well as its own.
     */
    private static void aBackupMasterTakesOverTheHistory(Process cluster, Path log, Admin admin) throws Exception {
        cluster.getOutputStream().write((DeployedClusterMain.FAIL_OVER + "\n").getBytes(StandardCharsets.UTF_8));
        cluster.getOutputStream().flush();
        Poll.until(Duration.ofMinutes(4), "the backup master active", () -> Files.readString(log, StandardCharsets.UTF_8)
                .contains("DEPLOYED-CLUSTER failed over to "));
        awaitNoRegionsInTransition(admin);
        Poll.until(Duration.ofMinutes(1), "the new master's balancer to plan", () -> {
            admin.balance(BalanceRequest.newBuilder().setDryRun(true).build());
            return MiniCluster.decisionLines(admin).stream().anyMatch(l -> l.startsWith("estimation: "));
        });
        String after = Files.readString(log, StandardCharsets.UTF_8);
        after = after.substring(after.indexOf("DEPLOYED-CLUSTER failed over to "));
        assertThat(after).as("the new master took over the saved history").containsPattern(
                "Libra: history of [1-9]\\d* window\\(s\\) taken over from the saved one");
        List<String> estimation = MiniCluster.decisionLines(admin).stream().filter(l -> l.startsWith("estimation: ")).toList();
        System.out.printf("DeployedClusterIT: after the failover, %s%n", estimation);
        assertThat(estimation).as("the first run planned on the old master's windows too")
                .anyMatch(l -> !l.contains(", 1 window(s),"));
    }

    /** Moves every region holding a hot row back onto the hot server. */
    private static void packHotRegions(Connection c, Admin admin, SkewedWorkload workload) throws IOException {
        for (Map.Entry<String, ServerName> e : hotRegions(c, workload).entrySet()) {
            if (!e.getValue().equals(workload.cpuServer)) {
                admin.move(org.apache.hadoop.hbase.util.Bytes.toBytes(e.getKey()), workload.cpuServer);
            }
        }
        awaitNoRegionsInTransition(admin);
    }

    /**
     * A dry run asked for by the caller plans (its decision says so) and moves no region; the first
     * run may only prime the request rates, so dry runs are repeated until one has planned.
     */
    private static void dryRunMovesNothing(Admin admin) throws IOException {
        awaitNoRegionsInTransition(admin);
        Map<String, ServerName> before = placement(admin);
        Poll.until(Duration.ofMinutes(1), "a dry run's decision", () -> {
            BalanceResponse dry = admin.balance(BalanceRequest.newBuilder().setDryRun(true).build());
            assertThat(dry.getMovesExecuted()).isZero();
            return MiniCluster.decisionLines(admin).stream().anyMatch(l -> l.contains("dry run requested by the caller"));
        });
        assertThat(placement(admin)).as("a dry run moves nothing").isEqualTo(before);
    }

    private static Map<String, ServerName> placement(Admin admin) throws IOException {
        Map<String, ServerName> out = new HashMap<>();
        for (ServerName sn : admin.getRegionServers()) {
            admin.getRegions(sn).forEach(r -> out.put(r.getEncodedName(), sn));
        }
        return out;
    }

    /** How many of the regions holding the hot rows are on the server they were first packed on. */
    private static int hotRegionsOn(Connection c, SkewedWorkload workload) throws IOException {
        return (int) hotRegions(c, workload).values().stream().filter(workload.cpuServer::equals).count();
    }

    /** The regions holding the hot rows (encoded names), each with the server it is on now. */
    private static Map<String, ServerName> hotRegions(Connection c, SkewedWorkload workload) throws IOException {
        Map<String, ServerName> out = new HashMap<>();
        try (org.apache.hadoop.hbase.client.RegionLocator locator = c.getRegionLocator(SkewedWorkload.TABLE)) {
            for (byte[] row : workload.hotRows) {
                org.apache.hadoop.hbase.HRegionLocation l = locator.getRegionLocation(row, true);
                out.put(l.getRegion().getEncodedName(), l.getServerName());
            }
        }
        return out;
    }

    private static void awaitNoRegionsInTransition(Admin admin) {
        Poll.until(Duration.ofMinutes(2), "no region in transition", () -> admin.getClusterMetrics(
                EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION)).getRegionStatesInTransition().isEmpty());
    }

    /**
     * Max/Mean over RegionServers of the read and write requests each served, by its own region
     * counters as the master holds them, over two report windows.
     */
    private static double requestSpread(Admin admin, LoadMeter meter) throws IOException {
        Map<ServerName, Long> from = requests(admin);
        Instant since = Instant.now();
        meter.freshReports(meter.freshReports(since).values().stream()
                .map(r -> Instant.ofEpochMilli(r.updatedAtMillis())).max(Instant::compareTo).orElseThrow());
        Map<ServerName, Long> to = requests(admin);
        List<Long> served = new ArrayList<>();
        to.forEach((sn, n) -> served.add(Math.max(0, n - from.getOrDefault(sn, 0L))));
        double mean = served.stream().mapToLong(Long::longValue).average().orElse(0);
        return mean > 0 ? served.stream().mapToLong(Long::longValue).max().orElseThrow() / mean : 1;
    }

    private static Map<ServerName, Long> requests(Admin admin) throws IOException {
        Map<ServerName, Long> out = new HashMap<>();
        for (Map.Entry<ServerName, ServerMetrics> e : admin.getClusterMetrics().getLiveServerMetrics().entrySet()) {
            long n = 0;
            for (RegionMetrics m : e.getValue().getRegionMetrics().values()) {
                n += m.getReadRequestCount() + m.getWriteRequestCount();
            }
            out.put(e.getKey(), n);
        }
        return out;
    }
}
