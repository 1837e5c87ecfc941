package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.libra.hbase.reporter.LoadReport;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Against a real HTTP server answering like HBase's /jmx servlet. */
class ReporterClientTest {
    private static final String BODY = "{\"beans\":[{\"name\":\"io.libra:type=RegionServerLoad,server=a_1_1\","
            + "\"ServerName\":\"a,1,1\",\"UpdatedAtMillis\":5,\"WindowSeconds\":10.0,\"CpuCores\":8.0,\"CpuUsage\":2.5,"
            + "\"CpuSource\":\"threads\",\"DiskReadBytesPerSec\":10.0,\"DiskWriteBytesPerSec\":20.0,"
            + "\"DiskSource\":\"user-bytes\",\"region.r1.readOps\":3.0,\"region.r1.writeOps\":4.0,"
            + "\"region.r1.readBytes\":5.0,\"region.r1.writeBytes\":6.0},"
            + "{\"name\":\"io.libra:type=RegionServerLoad,server=b_2_2\",\"ServerName\":\"b,2,2\",\"UpdatedAtMillis\":0}]}";

    private HttpServer server;

    private URI serve(int status, String body, long delayMs) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jmx", ex -> {
            try {
                Thread.sleep(delayMs); // simulates a RegionServer that does not answer in time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void readsTheReportOfEachServerFromJmxJson() throws Exception {
        URI base = serve(200, BODY, 0);
        Map<String, LoadReport> reports = new ReporterClient(Duration.ofSeconds(5)).fetch(Map.of("a,1,1", base, "b,2,2", base));
        assertThat(reports).containsOnlyKeys("a,1,1"); // b has not sampled yet: missing
        LoadReport a = reports.get("a,1,1");
        assertThat(a.cpuUsage()).isEqualTo(2.5);
        assertThat(a.diskBytesPerSec()).isEqualTo(30.0);
        assertThat(a.regionRates().get("r1")).containsExactly(3.0, 4.0, 5.0, 6.0);
    }

    @Test
    void serversThatFailOrTimeOutAreMissing() throws Exception {
        URI slow = serve(200, BODY, 1500);
        assertThat(new ReporterClient(Duration.ofMillis(200)).fetch(Map.of("a,1,1", slow))).isEmpty();
        assertThat(new ReporterClient(Duration.ofMillis(200)).fetch(Map.of("a,1,1", URI.create("http://127.0.0.1:1/")))).isEmpty();
        assertThat(ReporterClient.parse("not json", "a,1,1")).isEmpty();
    }
}
