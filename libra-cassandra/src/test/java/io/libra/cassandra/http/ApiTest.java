package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import io.libra.cassandra.config.ConfigLoader;
import io.libra.cassandra.config.SidecarConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real Netty server and daemon, pointed at a JMX port where nothing listens. */
class ApiTest {
    @TempDir
    Path dir;
    private Sidecar sidecar;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        SidecarConfig c = new SidecarConfig();
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.id = "n1";
        in.jmxPort = 1;
        c.instances = java.util.List.of(in);
        c.http.port = 0;
        c.http.authToken = "t0k";
        c.collection.windowSeconds = 1;
        c.execution.journal = dir.resolve("journal.json").toString();
        sidecar = new Sidecar(ConfigLoader.check(c, "test")).start();
    }

    @AfterEach
    void stop() {
        sidecar.close();
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sidecar.port() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void statusReportsTheUnreachableNodeAndRefusesToPlan() throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (json(send("GET", "/api/v1/status", null, "")).path("windows").asInt() == 0) {
            assertThat(System.nanoTime()).as("a window within 10 s").isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
        }
        JsonNode s = json(send("GET", "/api/v1/status", null, ""));
        assertThat(s.path("plannable").asBoolean()).isFalse();
        assertThat(s.path("problem").asText()).contains("node n1 is unreachable over JMX");
        assertThat(s.path("nodes").get(0).path("up").asBoolean()).isFalse();
        JsonNode plan = json(send("GET", "/api/v1/plan", null, ""));
        assertThat(plan.path("status").asText()).isEqualTo("unavailable");
        HttpResponse<String> r = send("POST", "/api/v1/rebalance", "t0k", "");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(json(r).path("error").asText()).startsWith("no plan to run");
    }

    @Test
    void mutatingCallsNeedTheBearerToken() throws Exception {
        assertThat(send("POST", "/api/v1/pause", null, "").statusCode()).isEqualTo(401);
        assertThat(send("POST", "/api/v1/pause", "nope", "").statusCode()).isEqualTo(401);
        HttpResponse<String> ok = send("POST", "/api/v1/pause", "t0k", "");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(json(ok).path("paused").asBoolean()).isTrue();
        assertThat(json(send("POST", "/api/v1/resume", "t0k", "")).path("paused").asBoolean()).isFalse();
    }

    @Test
    void badRequestsGetOneLine4xx() throws Exception {
        assertThat(send("GET", "/api/v1/nope", null, "").statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/api/v1/status", null, "").statusCode()).isEqualTo(405);
        assertThat(send("GET", "/api/v1/rebalance", null, "").statusCode()).isEqualTo(405);
        HttpResponse<String> bad = send("POST", "/api/v1/rebalance", "t0k", "[1]");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).path("error").asText()).isEqualTo("body: must be a JSON object");
        assertThat(send("GET", "/api/v1/jobs/x", null, "").statusCode()).isEqualTo(404);
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics", null, "");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("libra_cassandra_job_running");
    }
}
