package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** libra snapshot capture against a small real HTTP server on the loopback interface. */
class CaptureCommandTest {
    @TempDir
    Path dir;

    private LocalServer server;
    private byte[] example;

    @BeforeEach
    void start() throws IOException {
        example = Files.readAllBytes(ExamplesTest.EXAMPLES.resolve("ycsb-a-4nodes.snapshot.json"));
        server = LocalServer.http();
        server.body = example;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String base() {
        return "http://" + server.address();
    }

    @Test
    void capturesTheSidecarsSnapshotByteForByte() throws IOException {
        Path out = dir.resolve("captured.json");
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", base(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(server.paths).containsExactly("/api/v1/snapshot");
        assertThat(Files.readAllBytes(out)).isEqualTo(example);
        assertThat(r.out()).startsWith("captured " + base() + "/api/v1/snapshot: store generic, 4 nodes, 32 regions, window 60 s, sha256 ")
                .endsWith(" -> " + out + "\n");
        // the captured file is a snapshot like any other
        assertThat(Cli.run("plan", "--snapshot", out.toString()).code()).isZero();
    }

    @Test
    void aFullUrlIsFetchedAsGivenAndStdoutGetsTheDocument() {
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", base() + "/libra/snapshot?table=t");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(server.paths).containsExactly("/libra/snapshot?table=t");
        assertThat(r.out()).isEqualTo(new String(example, StandardCharsets.UTF_8));
    }

    @Test
    void theTokenIsSentOnlyWhenAsked() {
        assertThat(Cli.run("snapshot", "capture", "--timeout", "120", "--from", base()).code()).isZero();
        String path = System.getenv("PATH");
        assertThat(Cli.run("snapshot", "capture", "--timeout", "120", "--from", base(), "--token-env", "PATH").code()).isZero();
        assertThat(server.auth).containsExactly("", "Bearer " + path.trim());
        Cli.Result unset = Cli.run("snapshot", "capture", "--timeout", "120", "--from", base(), "--token-env", "LIBRA_NO_SUCH_VARIABLE_42");
        assertThat(unset.code()).isEqualTo(2);
        assertThat(unset.err().strip()).isEqualTo("libra: --token-env: the environment variable LIBRA_NO_SUCH_VARIABLE_42 is not set");
    }

    @Test
    void theServersRefusalIsOneLineWithItsReason() {
        server.status = 503;
        server.body = "{\"error\": \"no snapshot yet: the first window ends in 60 s\"}".getBytes(StandardCharsets.UTF_8);
        Path out = dir.resolve("captured.json");
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", base(), "--out", out.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("libra: error: " + base() + "/api/v1/snapshot: HTTP 503: no snapshot yet: the first window ends in 60 s");
        assertThat(out).doesNotExist();
    }

    @Test
    void aBadDocumentIsRejectedNamingTheUrlAndNothingIsWritten() {
        server.body = "{\"format\": \"libra.plan/v1\"}".getBytes(StandardCharsets.UTF_8);
        Path out = dir.resolve("captured.json");
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", base(), "--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(base() + "/api/v1/snapshot: format: must be \"libra.snapshot/v1\", got \"libra.plan/v1\"");
        assertThat(out).doesNotExist();
    }

    @Test
    void nobodyListeningIsOneLine() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", "http://127.0.0.1:" + port);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("libra: error: http://127.0.0.1:" + port + "/api/v1/snapshot: cannot connect");
    }

    @Test
    void aUrlThatIsNotHttpIsBadInput() {
        Cli.Result r = Cli.run("snapshot", "capture", "--timeout", "120", "--from", "sidecar-host:9044");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("libra: --from: expected an http:// or https:// URL with a host, got 'sidecar-host:9044'");
    }
}
