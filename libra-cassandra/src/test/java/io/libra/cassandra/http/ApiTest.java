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
import java.util.List;
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
        assertThat(plan.path("status").asText()).isEqualTo("suspended");
        assertThat(plan.path("detail").asText()).contains("node n1 is unreachable over JMX");
        assertThat(plan.path("planId").isNull()).isTrue();
        HttpResponse<String> snap = send("GET", "/api/v1/snapshot", null, "");
        assertThat(snap.statusCode()).isEqualTo(503);
        assertThat(json(snap).path("error").asText()).startsWith("no snapshot yet: ").contains("node n1 is unreachable over JMX");
        HttpResponse<String> r = send("POST", "/api/v1/rebalance", "t0k", "{\"plan_id\": \"abc\"}");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(json(r).path("error").asText()).startsWith("no plan to run");
        assertThat(json(r).path("planId").isNull()).isTrue();
        assertThat(s.path("alerts").isArray()).isTrue();
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
        HttpResponse<String> noPlanId = send("POST", "/api/v1/rebalance", "t0k", "");
        assertThat(noPlanId.statusCode()).isEqualTo(400);
        assertThat(json(noPlanId).path("error").asText()).startsWith("body.plan_id: required");
        assertThat(send("POST", "/api/v1/jobs/x/abort", "t0k", "").statusCode()).isEqualTo(404);
        assertThat(send("POST", "/api/v1/jobs/x/abort", null, "").statusCode()).isEqualTo(401);
        HttpResponse<String> jobs = send("GET", "/api/v1/jobs", null, "");
        assertThat(jobs.statusCode()).isEqualTo(200);
        assertThat(json(jobs).path("jobs").isArray()).isTrue();
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics", null, "");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("libra_cassandra_job_running");
    }

    @Test
    void anOversizedBodyGetsAOneLine413() throws Exception {
        // a raw request announcing a body over the limit: the server answers from the headers alone
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", sidecar.port())) {
            s.getOutputStream().write(("POST /api/v1/rebalance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (ApiServer.MAX_BODY + 1) + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 413 ");
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertThat(Json.MAPPER.readTree(body).path("error").asText())
                    .isEqualTo("request body too large: the limit is 65536 bytes");
        }
    }

    @Test
    void anInternalErrorIsOneLineWithoutItsText() {
        Api.Response r = new Api(null).handleSafely("GET", "/api/v1/status", null, new byte[0]);
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.body()).matches("(?s)\\{\\s*\"error\" : \"internal error \\(incident [0-9a-f]+ in the sidecar's log\\)\"\\s*}\\s*")
                .doesNotContain("NullPointer");
    }

    @Test
    void healthIsUpWhileTheLoopRuns() throws Exception {
        HttpResponse<String> r = send("GET", "/api/v1/health", null, "");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r).path("status").asText()).isEqualTo("up");
        assertThat(json(r).path("nodes").asInt()).isEqualTo(1);
    }

    @Test
    void metricsHaveHelpAndNoNaNBeforeOrAfterTheFirstWindow() throws Exception {
        String before = send("GET", "/metrics", null, "").body();
        assertThat(before).doesNotContain("NaN");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (json(send("GET", "/api/v1/status", null, "")).path("windows").asInt() == 0) {
            assertThat(System.nanoTime()).as("a window within 10 s").isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
        }
        String after = send("GET", "/metrics", null, "").body();
        assertThat(after).doesNotContain("NaN").contains("libra_cassandra_window_plannable 0.0")
                .contains("libra_cassandra_window_age_seconds");
        for (String text : List.of(before, after)) {
            text.lines().filter(l -> l.startsWith("# HELP ")).forEach(l ->
                    assertThat(l.split(" ", 4)).as(l).hasSize(4).satisfies(p -> assertThat(p[3]).as(l).isNotBlank()));
        }
        assertThat(after.lines().filter(l -> l.startsWith("# HELP libra_")).count()).isGreaterThanOrEqualTo(6);
    }
}
