package io.libra.hbase.balancer;

import io.libra.hbase.reporter.LoadReport;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerName;

/** Where the balancer gets the RegionServers' CPU/disk reports; the RegionServers' {@code /jmx} in production. */
@FunctionalInterface
public interface ReportSource {
    /** Reports by server name ({@code host,port,startcode}); servers without one are left out. */
    Map<String, LoadReport> reports(Set<ServerName> servers, ClusterMetrics metrics);

    /** The reports, and for each server without one the reason (a source that knows it says more). */
    default ReporterClient.Pull pull(Set<ServerName> servers, ClusterMetrics metrics) {
        Map<String, LoadReport> got = reports(servers, metrics);
        Map<String, String> missing = new LinkedHashMap<>();
        servers.forEach(s -> {
            if (!got.containsKey(s.getServerName())) {
                missing.put(s.getServerName(), "no report");
            }
        });
        return new ReporterClient.Pull(got, missing);
    }
}
