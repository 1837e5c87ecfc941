package io.libra.hbase.balancer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.hbase.reporter.LoadReport;
import io.libra.hbase.reporter.LoadReportMBean;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.HttpsURLConnection;
import org.apache.hadoop.hbase.ServerName;

/**
 * Reads each RegionServer's Libra report from its {@code /jmx} endpoint (the info server).
 *
 * <p>Why {@link HttpURLConnection} and not {@code java.net.http.HttpClient}: the latter refuses
 * host names with an underscore (they are not valid DNS names, but they are common RegionServer
 * host names), while {@code URL} keeps such a host as given and the resolver finds it.
 *
 * <p>At most {@code concurrency} requests run at once (500+ RegionServers must not open 500
 * sockets and threads at once on the master); each may take {@code timeout} to connect and again
 * to read, and the whole pull ends after {@link #deadline()}: what has not answered by then is
 * missing, with the reason.
 */
public final class ReporterClient implements AutoCloseable {
    static final String QUERY = "/jmx?qry=io.libra:type=RegionServerLoad,*";
    /** The whole pull may take this many per-request timeouts. */
    static final int DEADLINE_TIMEOUTS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where one RegionServer's report is read: the registered server name and its info endpoint. */
    public record Endpoint(ServerName server, String scheme, String host, int port) {
        URL url() throws IOException {
            return new URL(scheme, host, port, QUERY);
        }
    }

    /** Reports by server name, and for the servers without one the reason in a few words. */
    public record Pull(Map<String, LoadReport> reports, Map<String, String> missing) {
    }

    private final Duration timeout;
    private final Tls tls;
    private final ExecutorService pool;
    private final InstantSource clock;

    public ReporterClient(Duration timeout) {
        this(timeout, 32, Tls.NONE, InstantSource.system());
    }

    /** The pull's deadline runs on {@code clock}; each request's own timeouts are the socket's. */
    public ReporterClient(Duration timeout, int concurrency, Tls tls, InstantSource clock) {
        this.timeout = timeout;
        this.tls = tls;
        this.clock = clock;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(Math.max(1, concurrency), r -> {
            Thread t = new Thread(r, "libra-report-pull-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    Duration deadline() {
        return timeout.multipliedBy(DEADLINE_TIMEOUTS);
    }

    /** Reports by server name ({@code host,port,startcode}) for a server name → base URL map (tests, tools). */
    public Map<String, LoadReport> fetch(Map<String, URI> endpoints) {
        Map<String, Endpoint> e = new LinkedHashMap<>();
        endpoints.forEach((name, uri) -> e.put(name, new Endpoint(ServerName.parseServerName(name), uri.getScheme(),
                uri.getHost() != null ? uri.getHost() : uri.getAuthority().replaceFirst(":\\d+$", ""), uri.getPort())));
        return pull(e.values()).reports();
    }

    /** Asks every endpoint, {@code concurrency} at a time, within {@link #deadline()}. */
    public Pull pull(Iterable<Endpoint> endpoints) {
        Map<String, Future<Result>> pending = new LinkedHashMap<>();
        for (Endpoint e : endpoints) {
            pending.put(e.server().getServerName(), pool.submit(() -> fetchOne(e)));
        }
        Map<String, LoadReport> reports = new HashMap<>();
        Map<String, String> missing = new LinkedHashMap<>();
        Instant end = clock.instant().plus(deadline());
        pending.forEach((server, f) -> {
            try {
                Result r = f.get(Math.max(1, Duration.between(clock.instant(), end).toNanos()), TimeUnit.NANOSECONDS);
                if (r.report() != null) {
                    reports.put(server, r.report());
                } else {
                    missing.put(server, r.problem());
                }
            } catch (java.util.concurrent.TimeoutException e) {
                f.cancel(true);
                missing.put(server, "no answer within the pull deadline of " + deadline().toMillis() + " ms");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                f.cancel(true);
                missing.put(server, "interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                missing.put(server, String.valueOf(e.getCause()));
            }
        });
        return new Pull(reports, missing);
    }

    private record Result(LoadReport report, String problem) {
    }

    private Result fetchOne(Endpoint e) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) e.url().openConnection();
            if (c instanceof HttpsURLConnection) {
                tls.configure((HttpsURLConnection) c);
            }
            c.setConnectTimeout((int) Math.max(1, timeout.toMillis()));
            c.setReadTimeout((int) Math.max(1, timeout.toMillis()));
            int status = c.getResponseCode();
            if (status != 200) {
                return new Result(null, "HTTP " + status + " from " + e.url());
            }
            String body;
            try (InputStream in = c.getInputStream()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return parse(body, e.server()).map(r -> new Result(r, null))
                    .orElseGet(() -> new Result(null, "no Libra report for " + e.server() + " at " + e.host() + ":"
                            + e.port() + " (reporter not loaded, or no window closed yet)"));
        } catch (SocketTimeoutException ex) {
            return new Result(null, "timed out after " + timeout.toMillis() + " ms (" + e.host() + ":" + e.port() + ")");
        } catch (IOException | RuntimeException ex) {
            return new Result(null, ex.getClass().getSimpleName() + ": " + ex.getMessage() + " (" + e.host() + ":"
                    + e.port() + ")");
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    /** The report of {@code server} in a {@code /jmx} JSON answer (test convenience). */
    static java.util.Optional<LoadReport> parse(String json, String server) {
        return parse(json, ServerName.parseServerName(server));
    }

    /**
     * The report of the server the master registered as {@code server}. Several servers may
     * share one JVM (a mini cluster). The bean names the server as the RegionServer saw itself
     * at start; the master may know it under another host name (DNS, an advertised name), so a
     * bean matches on port and start code when the host names differ: together they identify
     * one RegionServer process, and a restarted server has a new start code.
     */
    static java.util.Optional<LoadReport> parse(String json, ServerName server) {
        try {
            JsonNode sameProcess = null;
            for (JsonNode bean : JSON.readTree(json).path("beans")) {
                if (bean.path("UpdatedAtMillis").asLong() <= 0) {
                    continue;
                }
                String named = bean.path("ServerName").asText();
                if (server.getServerName().equals(named)) {
                    return java.util.Optional.of(toReport(bean, server.getServerName()));
                }
                if (sameProcess(server, named)) {
                    sameProcess = bean;
                }
            }
            return java.util.Optional.ofNullable(sameProcess).map(b -> toReport(b, server.getServerName()));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    private static boolean sameProcess(ServerName registered, String named) {
        try {
            ServerName seen = ServerName.parseServerName(named);
            return seen.getPort() == registered.getPort() && seen.getStartcode() == registered.getStartcode();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Counters start at 0; measured figures are NaN (not measured) until the report gives them. */
    private static double[] unmeasured() {
        double[] r = new double[LoadReportMBean.REGION_FIELDS.size()];
        r[LoadReportMBean.MEASURED_CPU] = Double.NaN;
        r[LoadReportMBean.MEASURED_DISK] = Double.NaN;
        return r;
    }

    private static LoadReport toReport(JsonNode bean, String server) {
        Map<String, double[]> regions = new HashMap<>();
        Map<String, java.util.List<io.libra.core.model.KeyBucket>> histograms = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = bean.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String name = f.getKey();
            if (!name.startsWith("region.")) {
                continue;
            }
            int dot = name.lastIndexOf('.');
            String region = name.substring("region.".length(), dot);
            if (name.endsWith("." + LoadReportMBean.KEY_HISTOGRAM)) {
                histograms.put(region, LoadReportMBean.decode(f.getValue().asText()));
                continue;
            }
            int i = LoadReportMBean.REGION_FIELDS.indexOf(name.substring(dot + 1));
            if (i >= 0) {
                regions.computeIfAbsent(region, k -> unmeasured())[i] = Math.max(0, f.getValue().asDouble());
            }
        }
        return new LoadReport(server, bean.path("UpdatedAtMillis").asLong(), bean.path("WindowSeconds").asDouble(),
                bean.path("CpuCores").asDouble(), bean.path("CpuUsage").asDouble(), bean.path("CpuSource").asText(),
                bean.path("DiskReadBytesPerSec").asDouble(), bean.path("DiskWriteBytesPerSec").asDouble(),
                bean.path("DiskSource").asText(), regions, Math.max(0, bean.path("DiskCapacityBytesPerSec").asDouble()),
                histograms);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
