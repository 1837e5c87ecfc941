package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.hbase.LibraConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The last window as a libra.snapshot/v1 file: on a dry-run balance into hbase.libra.snapshot.dir, and over JMX. */
class SnapshotExportTest {
    private final SnapshotMetrics cluster = new SnapshotMetrics(Skewed.snapshot());
    private LibraLoadBalancer balancer;

    @AfterEach
    void stop() {
        BalanceRequestContext.end();
        if (balancer != null) {
            balancer.stop("test over");
        }
    }

    private void balancer(Path dir) throws Exception {
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        conf.set(LibraConfig.SNAPSHOT_DIR, dir.toString());
        balancer = new LibraLoadBalancer();
        balancer.setReportSource((servers, cm) -> cluster.reports);
        balancer.setMasterServices(MasterStub.of(conf));
        balancer.initialize();
        balancer.updateClusterMetrics(cluster.first);
        balancer.updateClusterMetrics(cluster.second);
    }

    private void balance() throws Exception {
        Map<TableName, Map<ServerName, List<RegionInfo>>> load = new HashMap<>();
        load.put(HConstants.ENSEMBLE_TABLE_NAME, cluster.assignment);
        balancer.balanceCluster(load);
    }

    private static List<Path> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("libra-snapshot-")).toList();
        }
    }

    @Test
    void aDryRunBalanceWritesItsWindowIntoTheSnapshotDirectory(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("snapshots"); // created on first use
        balancer(out);
        balance(); // the chore's run (no dry run asked): no file
        assertThat(Files.exists(out)).isFalse();
        BalanceRequestContext.begin(true); // shell: balancer 'dry_run'
        balance();
        List<Path> written = files(out);
        assertThat(written).hasSize(1);
        ClusterSnapshot s = SnapshotCodec.read(written.get(0).toString(), Files.readAllBytes(written.get(0)));
        assertThat(s.store()).isEqualTo("hbase");
        assertThat(s.nodes()).hasSize(4);
        assertThat(s.regions()).hasSize(32);
    }

    @Test
    void theMastersJmxServesTheLastWindowAndWritesItOnRequest(@TempDir Path dir) throws Exception {
        balancer(dir.resolve("unused"));
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(SnapshotExport.NAME);
        assertThat(mbs.getAttribute(name, "Snapshot")).isEqualTo("");
        balance();
        String json = (String) mbs.getAttribute(name, "Snapshot");
        assertThat(SnapshotCodec.read("jmx", json.getBytes()).regions()).hasSize(32);
        assertThat(mbs.getAttribute(name, "Regions")).isEqualTo(32);
        Path file = dir.resolve("now.json");
        Object written = mbs.invoke(name, "writeSnapshot", new Object[] {file.toString()},
                new String[] {String.class.getName()});
        assertThat(written).isEqualTo(file.toString());
        assertThat(SnapshotCodec.read("file", Files.readAllBytes(file)).nodes()).hasSize(4);
    }
}
