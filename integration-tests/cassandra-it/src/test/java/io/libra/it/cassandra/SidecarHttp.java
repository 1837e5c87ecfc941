package io.libra.it.cassandra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The sidecar's HTTP API as the ITs call it: status, JSON body (empty object when not JSON) and raw text. */
final class SidecarHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    SidecarHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    record Reply(int status, JsonNode body, String raw) {
    }

    Reply get(String path) {
        return get(path, Duration.ofSeconds(10));
    }

    /** A GET that may take longer, e.g. an add-node advice that runs Cassandra's allocator in a child JVM. */
    Reply get(String path, Duration timeout) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().timeout(timeout));
    }

    /**
     * A POST waits up to a minute: {@code /api/v1/rebalance} takes the execution lease before it
     * answers, a lightweight transaction over CQL whose first use also connects and creates the
     * lease table (a run timed out at 10 s right after a sidecar process restarted, four nodes busy).
     */
    Reply post(String path, String token, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b);
    }

    private Reply send(HttpRequest.Builder b) {
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().startsWith("{") ? JSON.readTree(r.body()) : JSON.createObjectNode();
            return new Reply(r.statusCode(), body, r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
