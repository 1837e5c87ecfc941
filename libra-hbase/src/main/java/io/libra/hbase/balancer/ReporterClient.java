package io.libra.hbase.balancer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.hbase.reporter.LoadReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads each RegionServer's Libra report from its {@code /jmx} HTTP endpoint (the info server).
 * All servers are asked at once; a server that does not answer within the timeout, answers
 * badly or has no report is simply absent from the result.
 */
public final class ReporterClient {
    static final String QUERY = "/jmx?qry=io.libra:type=RegionServerLoad,*";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;

    public ReporterClient(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** Reports by server name ({@code host,port,startcode}) for the given server → base URL map. */
    public Map<String, LoadReport> fetch(Map<String, URI> endpoints) {
        Map<String, CompletableFuture<Optional<LoadReport>>> pending = new HashMap<>();
        endpoints.forEach((server, base) -> {
            HttpRequest req = HttpRequest.newBuilder(base.resolve(QUERY)).timeout(timeout).GET().build();
            pending.put(server, http.sendAsync(req, HttpResponse.BodyHandlers.ofString())
                    .thenApply(resp -> resp.statusCode() == 200 ? parse(resp.body(), server) : Optional.<LoadReport>empty())
                    .exceptionally(e -> Optional.empty()));
        });
        Map<String, LoadReport> reports = new HashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        pending.forEach((server, f) -> {
            try {
                long left = Math.max(1, deadline - System.nanoTime());
                f.get(left, TimeUnit.NANOSECONDS).ifPresent(r -> reports.put(server, r));
            } catch (Exception e) {
                f.cancel(true);
            }
        });
        return reports;
    }

    /** The report of {@code server} in a {@code /jmx} JSON answer; several servers may share one JVM. */
    static Optional<LoadReport> parse(String json, String server) {
        try {
            for (JsonNode bean : JSON.readTree(json).path("beans")) {
                if (server.equals(bean.path("ServerName").asText()) && bean.path("UpdatedAtMillis").asLong() > 0) {
                    return Optional.of(toReport(bean, server));
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static LoadReport toReport(JsonNode bean, String server) {
        Map<String, double[]> regions = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = bean.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String name = f.getKey();
            if (!name.startsWith("region.")) {
                continue;
            }
            int dot = name.lastIndexOf('.');
            String region = name.substring("region.".length(), dot);
            int i = java.util.Arrays.asList("readOps", "writeOps", "readBytes", "writeBytes").indexOf(name.substring(dot + 1));
            if (i >= 0) {
                regions.computeIfAbsent(region, k -> new double[4])[i] = Math.max(0, f.getValue().asDouble());
            }
        }
        return new LoadReport(server, bean.path("UpdatedAtMillis").asLong(), bean.path("WindowSeconds").asDouble(),
                bean.path("CpuCores").asDouble(), bean.path("CpuUsage").asDouble(), bean.path("CpuSource").asText(),
                bean.path("DiskReadBytesPerSec").asDouble(), bean.path("DiskWriteBytesPerSec").asDouble(),
                bean.path("DiskSource").asText(), regions, Math.max(0, bean.path("DiskCapacityBytesPerSec").asDouble()));
    }
}
