package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.config.SidecarConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The HTTP server around the API, on a real Netty server and the JDK's HTTP client. */
class ApiServerTest {
    /** A daemon whose /metrics blocks until released (a slow request, as a lease over CQL can be). */
    private static final class SlowMetrics extends StubDaemon {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        SlowMetrics() {
            super(() -> new DaemonView(new SidecarConfig(), Instant.EPOCH, 1, null, null, null, null, null, null, null,
                    null, null, false, true, 3, false, null, null));
        }

        @Override
        public String metrics() {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "done\n";
        }
    }

    private static CompletableFuture<HttpResponse<String>> get(int port, String path) {
        // one client per request: each its own connection, so they land on different channels
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSlowRequestDoesNotStallOtherConnections() throws Exception {
        SlowMetrics daemon = new SlowMetrics();
        try (ApiServer server = new ApiServer("127.0.0.1", 0, new Api(daemon))) {
            CompletableFuture<HttpResponse<String>> slow = get(server.port(), "/metrics");
            assertThat(daemon.entered.await(20, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<HttpResponse<String>> a = get(server.port(), "/api/v1/health");
            CompletableFuture<HttpResponse<String>> b = get(server.port(), "/api/v1/health");
            assertThat(a.get(20, TimeUnit.SECONDS).statusCode()).isIn(200, 503);
            assertThat(b.get(20, TimeUnit.SECONDS).statusCode()).isIn(200, 503);
            assertThat(slow).isNotDone();
            daemon.release.countDown();
            assertThat(slow.get(20, TimeUnit.SECONDS).body()).isEqualTo("done\n");
        }
    }
}
