package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

/**
 * A RegionServer whose host name has an underscore ({@code rs_1.libra.test}, resolved through the
 * JVM hosts file {@code src/test/resources/underscore-hosts}; this class runs in its own surefire
 * execution with {@code jdk.net.hosts.file} set). {@code java.net.http.HttpClient} refuses such
 * a URI outright; the pull must not.
 */
class UnderscoreHostnameTest {
    @Test
    void pullsFromAHostWithAnUnderscore() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jmx", ex -> {
            byte[] b = ("{\"beans\":[{\"ServerName\":\"rs_1.libra.test,16020,5\",\"UpdatedAtMillis\":5,"
                    + "\"CpuUsage\":1.5}]}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        ServerName rs = ServerName.valueOf("rs_1.libra.test", 16020, 5);
        try (ReporterClient client = new ReporterClient(Duration.ofSeconds(5), 2, Tls.NONE, java.time.InstantSource.system())) {
            ReporterClient.Pull pull = client.pull(List.of(
                    new ReporterClient.Endpoint(rs, "http", rs.getHostname(), server.getAddress().getPort())));
            assertThat(pull.missing()).isEmpty();
            assertThat(pull.reports().get("rs_1.libra.test,16020,5").cpuUsage()).isEqualTo(1.5);
        } finally {
            server.stop(0);
        }
    }
}
