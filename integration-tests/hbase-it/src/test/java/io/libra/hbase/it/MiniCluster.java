package io.libra.hbase.it;

import io.libra.hbase.LibraConfig;
import io.libra.hbase.balancer.LibraMasterObserver;
import io.libra.hbase.reporter.LibraRegionObserver;
import io.libra.hbase.reporter.LibraRegionServerReporter;
import io.libra.it.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalancerDecision;
import org.apache.hadoop.hbase.client.LogEntry;
import org.apache.hadoop.hbase.client.ServerType;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.LoadBalancer;

/**
 * A real MiniHBaseCluster on the local filesystem (ZooKeeper, one master, four RegionServers in
 * this JVM; no MiniDFS) with Libra's reporter loaded on every RegionServer and the given
 * balancer on the master.
 */
final class MiniCluster implements AutoCloseable {
    static final int REGION_SERVERS = 4;
    static final long REPORT_WINDOW_MS = 2000;

    final HBaseTestingUtility util;

    private MiniCluster(HBaseTestingUtility util) {
        this.util = util;
    }

    static MiniCluster start(Class<? extends LoadBalancer> balancer, Map<String, String> extra) throws Exception {
        HBaseTestingUtility util = new HBaseTestingUtility();
        Configuration conf = util.getConfiguration();
        configure(conf, balancer.getName());
        extra.forEach(conf::set);
        util.startMiniZKCluster();
        util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1)
                .numRegionServers(REGION_SERVERS).build());
        MiniCluster c = new MiniCluster(util);
        Poll.until(Duration.ofSeconds(120), "master initialised",
                () -> c.master().isInitialized() && c.admin().getRegionServers().size() == REGION_SERVERS);
        return c;
    }

    /**
     * The cluster's settings: {@code balancer} on the master, Libra's reporter and observers on
     * every RegionServer, loopback only, short report windows, and balancing only when the test asks.
     */
    static void configure(Configuration conf, String balancer) {
        conf.set("hbase.master.loadbalancer.class", balancer);
        conf.set("hbase.coprocessor.master.classes", LibraMasterObserver.class.getName());
        conf.set("hbase.coprocessor.regionserver.classes", LibraRegionServerReporter.class.getName());
        conf.set("hbase.coprocessor.region.classes", LibraRegionObserver.class.getName());
        conf.setBoolean("hbase.master.balancer.decision.buffer.enabled", true);
        conf.setInt("hbase.regionserver.info.port", 0);
        conf.set("hbase.regionserver.info.bindAddress", "127.0.0.1");
        conf.set("hbase.regionserver.ipc.address", "127.0.0.1"); // listen on loopback only
        conf.set("hbase.master.ipc.address", "127.0.0.1");
        conf.setInt("hbase.master.info.port", -1);
        conf.setLong(LibraRegionServerReporter.WINDOW_MS, REPORT_WINDOW_MS);
        conf.setInt("hbase.balancer.period", 3_600_000); // only the test's explicit balance() calls
        conf.setInt("hbase.balancer.max.balancing", 30_000);
        conf.setInt("hbase.regionserver.handler.count", 8);
        conf.setInt("hbase.regionserver.msginterval", 1000); // RegionServer reports to the master every second
        conf.setBoolean(LibraConfig.DRY_RUN, false);
        conf.setDouble(LibraConfig.FLUCTUATION_GUARD, 0); // the test drives load in steps on purpose
        conf.setLong(LibraConfig.STALE_AFTER_MS, 20_000);
        conf.setLong(LibraConfig.REPORTER_TIMEOUT_MS, 10_000); // a loaded 2-core machine answers /jmx slowly
        conf.setLong("hbase.master.balancer.stochastic.maxRunningTime", 5_000);
    }

    HMaster master() {
        return util.getMiniHBaseCluster().getMaster();
    }

    /** The master's balancer, when the cluster runs Libra. */
    io.libra.hbase.balancer.LibraLoadBalancer libra() {
        return (io.libra.hbase.balancer.LibraLoadBalancer) master().getLoadBalancer();
    }

    Admin admin() throws IOException {
        return util.getAdmin();
    }

    Configuration conf() {
        return util.getConfiguration();
    }

    /** Every line of the master's balancer decision log (Libra writes its outcome line first). */
    /** Per primary region of {@code table} (encoded name), the server of each of its copies online. */
    static Map<String, List<ServerName>> copiesOnline(Admin admin, org.apache.hadoop.hbase.TableName table)
            throws IOException {
        Map<String, List<ServerName>> serversOf = new java.util.HashMap<>();
        for (ServerName sn : admin.getRegionServers()) {
            for (org.apache.hadoop.hbase.client.RegionInfo ri : admin.getRegions(sn)) {
                if (ri.getTable().equals(table)) {
                    serversOf.computeIfAbsent(org.apache.hadoop.hbase.client.RegionReplicaUtil
                            .getRegionInfoForDefaultReplica(ri).getEncodedName(), k -> new java.util.ArrayList<>()).add(sn);
                }
            }
        }
        return serversOf;
    }

    static List<String> decisionLines(Admin admin) throws IOException {
        List<String> lines = new ArrayList<>();
        for (LogEntry e : admin.getLogEntries(null, "BALANCER_DECISION", ServerType.MASTER, 250, null)) {
            lines.addAll(((BalancerDecision) e).getRegionPlans());
        }
        return lines;
    }

    void awaitNoRegionsInTransition() {
        Poll.until(Duration.ofSeconds(120), "no region in transition",
                () -> !master().getAssignmentManager().hasRegionsInTransition());
    }

    @Override
    public void close() throws Exception {
        util.shutdownMiniHBaseCluster();
        util.shutdownMiniZKCluster();
        util.cleanupTestDir();
    }
}
