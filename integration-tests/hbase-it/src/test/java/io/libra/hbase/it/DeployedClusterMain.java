package io.libra.hbase.it;

import io.libra.hbase.reporter.LibraRegionServerReporter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.RegionServerCoprocessorHost;

/**
 * A MiniHBaseCluster (ZooKeeper, one master, {@link #REGION_SERVERS} RegionServers) run on the
 * deployed layout ({@link DeployedJvm}), with Libra named by class as an operator names it
 * ({@link MiniCluster#configure}). Once the master is ready it prints where the balancer's class
 * was loaded from and writes ZooKeeper's client port to the file its argument names; it stops a
 * RegionServer's reporter when a {@value #STOP_REPORTER} line names it, fails the master over to a
 * backup on a {@value #FAIL_OVER} line, and shuts the cluster down
 * when its standard input closes. Arguments after the first are {@code key=value} settings of the
 * cluster's configuration, as an operator's hbase-site.xml would give them.
 */
public final class DeployedClusterMain {
    static final int REGION_SERVERS = 3;
    static final String BALANCER = "io.libra.hbase.balancer.LibraLoadBalancer";

    /** A line on standard input: stop the reporter coprocessor of the RegionServer named after it. */
    static final String STOP_REPORTER = "stop-reporter ";

    /** A line on standard input: start a backup master, then stop the active one so the backup takes over. */
    static final String FAIL_OVER = "fail-over";

    private DeployedClusterMain() {
    }

    /** Stops the RegionServer's reporter as a failing coprocessor would: the master gets no fresh report from it. */
    private static void stopReporter(HBaseTestingUtility util, ServerName sn) throws java.io.IOException {
        RegionServerCoprocessorHost host = util.getMiniHBaseCluster().getRegionServer(sn).getRegionServerCoprocessorHost();
        String name = LibraRegionServerReporter.class.getName();
        host.findCoprocessor(name).stop(host.findCoprocessorEnvironment(name));
    }

    /** The way an operator's failover goes: a backup master waits, the active one stops, the backup becomes active. */
    private static void failOver(HBaseTestingUtility util) throws java.io.IOException {
        org.apache.hadoop.hbase.MiniHBaseCluster hbase = util.getMiniHBaseCluster();
        HMaster old = hbase.getMaster();
        hbase.startMaster();
        hbase.stopMaster(old.getServerName());
        hbase.waitForMasterToStop(old.getServerName(), 120_000);
        hbase.waitForActiveAndReadyMaster(180_000);
    }

    public static void main(String[] args) throws Exception {
        HBaseTestingUtility util = new HBaseTestingUtility();
        Configuration conf = util.getConfiguration();
        MiniCluster.configure(conf, BALANCER);
        for (String setting : java.util.Arrays.asList(args).subList(1, args.length)) {
            conf.set(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
        }
        util.startMiniZKCluster();
        util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(REGION_SERVERS).build());
        HMaster master = util.getMiniHBaseCluster().getMaster();
        util.getMiniHBaseCluster().waitForActiveAndReadyMaster(120_000);
        Class<?> balancer = master.getLoadBalancer().getClass();
        System.out.println("DEPLOYED-CLUSTER balancer=" + balancer.getName() + " from="
                + balancer.getProtectionDomain().getCodeSource().getLocation());
        Path port = Path.of(args[0]);
        Path partial = port.resolveSibling(port.getFileName() + ".partial");
        Files.writeString(partial, Integer.toString(util.getZkCluster().getClientPort()), StandardCharsets.UTF_8);
        Files.move(partial, port, StandardCopyOption.ATOMIC_MOVE);
        java.io.BufferedReader commands = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
        // the test closes our standard input when it is done with the cluster
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            if (line.startsWith(STOP_REPORTER)) {
                String server = line.substring(STOP_REPORTER.length()).trim();
                stopReporter(util, ServerName.valueOf(server));
                System.out.println("DEPLOYED-CLUSTER reporter stopped on " + server);
            } else if (line.equals(FAIL_OVER)) {
                failOver(util);
                System.out.println("DEPLOYED-CLUSTER failed over to " + util.getMiniHBaseCluster().getMaster().getServerName());
            }
        }
        util.shutdownMiniHBaseCluster();
        util.shutdownMiniZKCluster();
        util.cleanupTestDir();
        System.out.println("DEPLOYED-CLUSTER stopped");
        System.exit(0);
    }
}
