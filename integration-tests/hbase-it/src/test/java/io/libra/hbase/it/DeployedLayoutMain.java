package io.libra.hbase.it;

import com.sun.net.httpserver.HttpServer;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.balancer.LibraLoadBalancer;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetricsBuilder;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.RegionMetricsBuilder;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerMetricsBuilder;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.master.MasterServices;
import org.apache.hadoop.hbase.master.RegionPlan;

/**
 * Runs in a JVM whose classpath is HBase's jars plus only the shaded Libra jar (see
 * {@link DeployedLayoutTest}): the balancer is created as the master creates it, publishes its
 * meters on JMX (relocated Micrometer and Dropwizard), pulls two RegionServers' reports over HTTP
 * (relocated Jackson) and plans with libra-core. Prints one line the test reads.
 */
public final class DeployedLayoutMain {
    private DeployedLayoutMain() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer rs = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        Map<ServerName, List<RegionInfo>> assignment = new LinkedHashMap<>();
        Map<ServerName, ServerMetrics> live = new LinkedHashMap<>();
        StringBuilder beans = new StringBuilder("{\"beans\":[");
        long id = 1;
        for (int s = 0; s < 2; s++) {
            ServerName sn = ServerName.valueOf("127.0.0.1", 16020 + s, 7L);
            List<RegionInfo> regions = new ArrayList<>();
            List<RegionMetrics> metrics = new ArrayList<>();
            StringBuilder bean = new StringBuilder("{\"ServerName\":\"" + sn.getServerName() + "\",\"UpdatedAtMillis\":"
                    + System.currentTimeMillis() + ",\"WindowSeconds\":10.0,\"CpuCores\":8.0,\"CpuUsage\":"
                    + (s == 0 ? 6.0 : 1.0) + ",\"CpuSource\":\"process\",\"DiskReadBytesPerSec\":1000.0,"
                    + "\"DiskWriteBytesPerSec\":1000.0,\"DiskSource\":\"proc-self-io\"");
            for (int r = 0; r < 8; r++) {
                byte[] start = r == 0 && s == 0 ? new byte[0] : new byte[] {(byte) (s * 8 + r)};
                byte[] end = r == 7 && s == 1 ? new byte[0] : new byte[] {(byte) (s * 8 + r + 1)};
                RegionInfo ri = RegionInfoBuilder.newBuilder(TableName.valueOf("usertable")).setStartKey(start)
                        .setEndKey(end).setRegionId(id++).build();
                regions.add(ri);
                metrics.add(RegionMetricsBuilder.newBuilder(ri.getRegionName()).build());
                double ops = s == 0 ? 1000 : 100;
                bean.append(",\"region.").append(ri.getEncodedName()).append(".readOps\":").append(ops)
                        .append(",\"region.").append(ri.getEncodedName()).append(".writeOps\":").append(ops / 10)
                        .append(",\"region.").append(ri.getEncodedName()).append(".readBytes\":").append(ops * 100)
                        .append(",\"region.").append(ri.getEncodedName()).append(".writeBytes\":").append(ops * 10);
            }
            bean.append('}');
            beans.append(s == 0 ? "" : ",").append(bean);
            assignment.put(sn, regions);
            live.put(sn, ServerMetricsBuilder.newBuilder(sn).setRegionMetrics(metrics)
                    .setInfoServerPort(rs.getAddress().getPort()).build());
        }
        byte[] body = beans.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        rs.createContext("/jmx", ex -> {
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        rs.start();

        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        conf.setBoolean(LibraConfig.DRY_RUN, false);
        // its own hbase.rootdir: the balancer saves its history there (and would read an earlier run's)
        conf.set(HConstants.HBASE_DIR, java.nio.file.Files.createTempDirectory("libra-deployed").toUri().toString());
        LibraLoadBalancer balancer = new LibraLoadBalancer();
        balancer.setMasterServices(master(conf));
        balancer.initialize();
        balancer.updateClusterMetrics(ClusterMetricsBuilder.newBuilder().setLiveServerMetrics(live).build());
        Map<TableName, Map<ServerName, List<RegionInfo>>> load = new HashMap<>();
        load.put(HConstants.ENSEMBLE_TABLE_NAME, assignment);
        List<RegionPlan> plans = balancer.balanceCluster(load);
        int estimated = balancer.lastSnapshot().estimatedNodes().size();
        boolean meters = !java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .queryNames(new javax.management.ObjectName("libra:*"), null).isEmpty();
        System.out.println("DEPLOYED-LAYOUT reported=" + (2 - estimated) + " moves=" + plans.size() + " meters=" + meters);
        balancer.stop("done");
        rs.stop(0);
        System.exit(0);
    }

    private static MasterServices master(Configuration conf) {
        ServerName master = ServerName.valueOf("127.0.0.1", 16000, 1L);
        return (MasterServices) Proxy.newProxyInstance(DeployedLayoutMain.class.getClassLoader(),
                new Class<?>[] {MasterServices.class}, (proxy, method, a) -> {
                    switch (method.getName()) {
                        case "getConfiguration":
                            return conf;
                        case "getServerName":
                            return master;
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == a[0];
                        case "toString":
                            return "master";
                        default:
                            Class<?> t = method.getReturnType();
                            return t == boolean.class ? false : t == int.class || t == long.class ? 0 : null;
                    }
                });
    }
}
