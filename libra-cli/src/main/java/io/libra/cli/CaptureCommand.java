package io.libra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Pulls the current window of a running cluster as libra.snapshot/v1 over HTTP, checks it with
 * the same codec as every reader, and keeps its bytes exactly (a plan names them by SHA-256).
 */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {"Saves a libra.snapshot/v1 from a running Libra sidecar or HBase master.",
                "A URL without a path gets the sidecar's /api/v1/snapshot; any other URL is fetched as given. "
                        + "The document is checked before it is written, and written byte for byte."})
final class CaptureCommand implements Callable<Integer> {
    static final String SNAPSHOT_PATH = "/api/v1/snapshot";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "URL",
            description = "where to fetch it: http://sidecar-host:9044 (the sidecar), or a full URL serving libra.snapshot/v1")
    String from;

    @Option(names = "--out", paramLabel = "FILE", description = "write the snapshot here (default: print it on stdout)")
    Path out;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "give up after this many seconds (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--token-env", paramLabel = "VAR",
            description = "send the bearer token held in this environment variable (for endpoints that ask for one)")
    String tokenEnv;

    @Override
    public Integer call() {
        URI uri = uri(from);
        if (timeoutSeconds < 1) {
            throw new BadInputException("libra: --timeout: must be >= 1, got " + timeoutSeconds);
        }
        if (out != null) {
            Inputs.checkWritable(out);
        }
        byte[] body = fetch(uri);
        ClusterSnapshot snap = SnapshotCodec.read(uri.toString(), body);
        if (out == null) {
            spec.commandLine().getOut().print(new String(body, StandardCharsets.UTF_8));
        } else {
            writeBytes(out, body);
            spec.commandLine().getOut().printf("captured %s: store %s, %d nodes, %d regions, window %.0f s, sha256 %s -> %s%n",
                    uri, snap.store(), snap.nodes().size(), snap.regions().size(), snap.windowSeconds(),
                    SnapshotCodec.sha256(body).substring(0, 12), out);
        }
        spec.commandLine().getOut().flush();
        return LibraCli.OK;
    }

    /** The URL to fetch: a bare http(s)://host:port means the sidecar's snapshot endpoint. */
    static URI uri(String text) {
        try {
            URI u = new URI(text.trim());
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
                throw new BadInputException("libra: --from: expected an http:// or https:// URL with a host, got '" + text + "'");
            }
            String path = u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/") ? SNAPSHOT_PATH : u.getRawPath();
            return new URI(u.getScheme(), u.getRawAuthority(), null, null, null).resolve(path
                    + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
        } catch (URISyntaxException e) {
            throw new BadInputException("libra: --from: not a URL: " + e.getMessage());
        }
    }

    private byte[] fetch(URI uri) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(timeoutSeconds))
                .header("Accept", "application/json").GET();
        String token = token();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new IllegalStateException(uri + ": no answer within " + timeoutSeconds + " s", e);
        } catch (ConnectException e) {
            throw new IllegalStateException(uri + ": cannot connect (is the sidecar or master running, and this its address?)", e);
        } catch (IOException e) {
            throw new IllegalStateException(uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(uri + ": interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + ": HTTP " + response.statusCode() + errorText(response.body()));
        }
        return response.body();
    }

    private String token() {
        if (tokenEnv == null) {
            return null;
        }
        String t = System.getenv(tokenEnv);
        if (t == null || t.isBlank()) {
            throw new BadInputException("libra: --token-env: the environment variable " + tokenEnv + " is not set");
        }
        return t.trim();
    }

    /** The server's own one-line reason: the sidecar answers {"error": "..."}. */
    static String errorText(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        try {
            JsonNode error = new ObjectMapper().readTree(text).path("error");
            if (error.isTextual()) {
                text = error.asText();
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: show the text itself
        }
        String line = text.lines().findFirst().orElse("");
        return line.isBlank() ? "" : ": " + (line.length() > 200 ? line.substring(0, 200) + "…" : line);
    }

    private static void writeBytes(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
