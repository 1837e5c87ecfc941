package io.libra.hbase.balancer;

import io.libra.hbase.reporter.LoadReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;

/**
 * The RegionServers' {@code /jmx}: each server is asked under the name and host the master
 * registered it with, on its info port from its {@link ServerMetrics} (or
 * {@code hbase.libra.reporter.port}), over https when {@code hbase.ssl.enabled}.
 */
final class JmxReportSource implements ReportSource, AutoCloseable {
    private final ReporterClient client;
    private final String scheme;
    private final int portOverride;

    JmxReportSource(ReporterClient client, String scheme, int portOverride) {
        this.client = client;
        this.scheme = scheme;
        this.portOverride = portOverride;
    }

    @Override
    public Map<String, LoadReport> reports(Set<ServerName> servers, ClusterMetrics metrics) {
        return pull(servers, metrics).reports();
    }

    @Override
    public ReporterClient.Pull pull(Set<ServerName> servers, ClusterMetrics metrics) {
        List<ReporterClient.Endpoint> endpoints = new ArrayList<>();
        Map<String, String> missing = new LinkedHashMap<>();
        for (ServerName sn : servers) {
            ServerMetrics sm = metrics == null ? null : metrics.getLiveServerMetrics().get(sn);
            int port = portOverride > 0 ? portOverride : sm == null ? -1 : sm.getInfoServerPort();
            if (port > 0) {
                endpoints.add(new ReporterClient.Endpoint(sn, scheme, sn.getHostname(), port));
            } else {
                missing.put(sn.getServerName(), "info port unknown (no metrics from this server yet)");
            }
        }
        ReporterClient.Pull pulled = client.pull(endpoints);
        missing.putAll(pulled.missing());
        return new ReporterClient.Pull(pulled.reports(), missing);
    }

    @Override
    public void close() {
        client.close();
    }
}
