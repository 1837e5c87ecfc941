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
import org.junit.jupiter.api.io.TempDir;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;

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
        assertThat(a.regionRates().get("r1")).startsWith(3.0, 4.0, 5.0, 6.0);
        assertThat(a.regionRates().get("r1")[4]).as("not measured").isNaN();
    }

    @Test
    void serversThatFailOrTimeOutAreMissing() throws Exception {
        URI slow = serve(200, BODY, 1500);
        assertThat(new ReporterClient(Duration.ofMillis(200)).fetch(Map.of("a,1,1", slow))).isEmpty();
        assertThat(new ReporterClient(Duration.ofMillis(200)).fetch(Map.of("a,1,1", URI.create("http://127.0.0.1:1/")))).isEmpty();
        assertThat(ReporterClient.parse("not json", "a,1,1")).isEmpty();
    }

    @Test
    void findsTheServerUnderTheNameTheMasterRegisteredEvenWhenItsOwnHostNameDiffers() {
        // the RegionServer saw itself as "a"; the master registered it as a.example.com, same port and start code
        assertThat(ReporterClient.parse(BODY, ServerName.valueOf("a.example.com", 1, 1))).get()
                .extracting(LoadReport::serverName).isEqualTo("a.example.com,1,1");
        assertThat(ReporterClient.parse(BODY, ServerName.valueOf("a", 1, 9))).as("a restarted server").isEmpty();
    }

    @Test
    void saysWhyAServerHasNoReport() throws Exception {
        URI base = serve(500, "boom", 0);
        try (ReporterClient client = new ReporterClient(Duration.ofSeconds(5), 4, Tls.NONE, java.time.InstantSource.system())) {
            ReporterClient.Pull pull = client.pull(List.of(
                    new ReporterClient.Endpoint(ServerName.valueOf("a", 1, 1), "http", "127.0.0.1", base.getPort()),
                    new ReporterClient.Endpoint(ServerName.valueOf("c", 3, 3), "http", "127.0.0.1", 1)));
            assertThat(pull.reports()).isEmpty();
            assertThat(pull.missing().get("a,1,1")).startsWith("HTTP 500");
            assertThat(pull.missing().get("c,3,3")).contains("ConnectException");
        }
    }

    @Test
    void asksAtMostConcurrencyServersAtOnce() throws Exception {
        AtomicInteger active = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/jmx", ex -> {
            most.accumulateAndGet(active.incrementAndGet(), Math::max);
            try {
                release.await(10, TimeUnit.SECONDS); // held until the test has seen how many overlap
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            active.decrementAndGet();
            byte[] b = BODY.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
        List<ReporterClient.Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            // every endpoint is the same server process seen under another registered host name
            endpoints.add(new ReporterClient.Endpoint(ServerName.valueOf("host" + i, 1, 1), "http", "127.0.0.1",
                    server.getAddress().getPort()));
        }
        try (ReporterClient client = new ReporterClient(Duration.ofSeconds(10), 3, Tls.NONE, java.time.InstantSource.system())) {
            CompletableFuture<ReporterClient.Pull> pull = CompletableFuture.supplyAsync(() -> client.pull(endpoints));
            awaitActive(active, 3, Duration.ofSeconds(10));
            release.countDown();
            assertThat(pull.get(30, TimeUnit.SECONDS).reports()).hasSize(24);
            assertThat(most.get()).isEqualTo(3);
        }
    }

    @Test
    void thePullDeadlineRunsOnTheInjectedClock() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/jmx", ex -> {
            try {
                release.await(30, TimeUnit.SECONDS); // answers only when the test is over
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.start();
        java.time.Instant t0 = java.time.Instant.parse("2026-11-23T10:00:00Z");
        AtomicInteger reads = new AtomicInteger();
        // the first reading starts the deadline; every later one is an hour on
        java.time.InstantSource clock = () -> reads.getAndIncrement() == 0 ? t0 : t0.plusSeconds(3600);
        try (ReporterClient client = new ReporterClient(Duration.ofSeconds(10), 2, Tls.NONE, clock)) {
            long start = System.nanoTime();
            ReporterClient.Pull pull = client.pull(List.of(new ReporterClient.Endpoint(ServerName.valueOf("a", 1, 1),
                    "http", "127.0.0.1", server.getAddress().getPort())));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("long before the 10 s request timeout")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(pull.missing().get("a,1,1")).isEqualTo("no answer within the pull deadline of 30000 ms");
        } finally {
            release.countDown();
        }
    }

    /** Polls until {@code n} requests are held at once, or fails at the deadline. */
    private static void awaitActive(AtomicInteger active, int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (active.get() < n) {
            assertThat(System.nanoTime()).as("%d requests held at once within %s", n, timeout).isLessThan(deadline);
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }

    @Test
    void readsOverHttpsWithTheConfiguredTrustStore(@TempDir Path dir) throws Exception {
        SSLContext tls = TestTls.selfSigned(dir);
        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        https.createContext("/jmx", ex -> {
            byte[] b = BODY.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        https.start();
        server = https;
        int port = https.getAddress().getPort();
        ServerName a = ServerName.valueOf("a", 1, 1);
        try (ReporterClient client = new ReporterClient(Duration.ofSeconds(5), 2,
                new Tls(tls.getSocketFactory(), (host, session) -> host.equals("localhost")), java.time.InstantSource.system())) {
            assertThat(client.pull(List.of(new ReporterClient.Endpoint(a, "https", "localhost", port))).reports())
                    .containsOnlyKeys("a,1,1");
            assertThat(client.pull(List.of(new ReporterClient.Endpoint(a, "http", "localhost", port))).missing())
                    .as("plain http against a TLS info server").containsKey("a,1,1");
        }
        try (ReporterClient untrusting = new ReporterClient(Duration.ofSeconds(5), 2, Tls.NONE, java.time.InstantSource.system())) {
            assertThat(untrusting.pull(List.of(new ReporterClient.Endpoint(a, "https", "localhost", port))).missing()
                    .get("a,1,1")).contains("SSL");
        }
    }

    @Test
    void theSchemeFollowsHbaseSslEnabled() {
        Configuration conf = new Configuration(false);
        assertThat(Tls.scheme(conf)).isEqualTo("http");
        conf.setBoolean("hbase.ssl.enabled", true);
        assertThat(Tls.scheme(conf)).isEqualTo("https");
        // no ssl-client.xml: Hadoop's factory falls back to the JVM's trust store, without complaint
        java.util.List<String> problems = new ArrayList<>();
        conf.set("hadoop.ssl.client.conf", "no-such-ssl-client.xml");
        assertThat(Tls.from(conf, problems::add)).isNotSameAs(Tls.NONE);
        assertThat(problems).isEmpty();
    }
}
