package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.format.SnapshotCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libra snapshot capture from an HBase master's /jmx servlet, served by a real HTTP server with the
 * answers HBase 2.6.4's JSONBean gives for libra-hbase's snapshot bean (src/test/resources/hbase-jmx).
 */
class HbaseMasterCaptureTest {
    static final String QUERY = "/jmx?qry=io.libra:type=BalancerSnapshot";

    @TempDir
    Path dir;

    private LocalServer master;

    @BeforeEach
    void start() throws IOException {
        master = LocalServer.http();
        master.body = recorded("snapshot.json");
    }

    @AfterEach
    void stop() {
        master.close();
    }

    static byte[] recorded(String name) throws IOException {
        try (InputStream in = HbaseMasterCaptureTest.class.getResourceAsStream("/hbase-jmx/" + name)) {
            return in.readAllBytes();
        }
    }

    private String url() {
        return "http://" + master.address() + QUERY;
    }

    private Cli.Result capture(String... more) {
        String[] args = Stream.concat(Stream.of("snapshot", "capture", "--hbase-master", master.address(), "--timeout", "120"),
                Stream.of(more)).toArray(String[]::new);
        return Cli.run(args);
    }

    @Test
    void unwrapsTheBeansSnapshotAndWritesItThroughAMove() throws IOException {
        Path out = dir.resolve("window.json");
        Cli.Result r = capture("--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(master.paths).containsExactly(QUERY);
        assertThat(master.upgrade).as("plain HTTP/1.1, no h2c upgrade offer").containsExactly("");
        String inside = new ObjectMapper().readTree(recorded("snapshot.json")).path("beans").get(0).path("Snapshot").asText();
        assertThat(Files.readString(out)).isEqualTo(inside);
        byte[] example = Files.readAllBytes(ExamplesTest.EXAMPLES.resolve("ycsb-a-4nodes.snapshot.json"));
        assertThat(SnapshotCodec.read("captured", Files.readAllBytes(out))).isEqualTo(SnapshotCodec.read("example", example));
        assertThat(r.out()).startsWith("captured " + url() + ": store generic, 4 nodes, 32 regions, window 60 s, sha256 ")
                .endsWith(" -> " + out + "\n");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(out);
        }
        assertThat(Cli.run("plan", "--snapshot", out.toString()).code()).isZero();
    }

    @Test
    void theMastersAddressTakesAScheme_aJmxUrlGetsTheQuery() {
        assertThat(Cli.run("snapshot", "capture", "--timeout", "120", "--hbase-master", "http://" + master.address()).code()).isZero();
        assertThat(Cli.run("snapshot", "capture", "--timeout", "120", "--from", "http://" + master.address() + "/jmx").code()).isZero();
        assertThat(master.paths).containsExactly(QUERY, QUERY);
        assertThat(CaptureSource.hbaseMaster("master1").uri()).hasToString("http://master1:16010" + QUERY);
        assertThat(CaptureSource.hbaseMaster("https://master1").uri()).hasToString("https://master1:16010" + QUERY);
        assertThat(CaptureSource.from("http://master1:16010/jmx?qry=io.libra:*").uri()).hasToString("http://master1:16010/jmx?qry=io.libra:*");
    }

    @Test
    void beforeTheFirstBalanceRunSaysSoInOneLine() throws IOException {
        master.body = recorded("no-window-yet.json");
        Path out = dir.resolve("window.json");
        Cli.Result r = capture("--out", out.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url() + ": no snapshot yet: the balancer has not run since the master "
                + "started (run balancer 'dry_run' in the hbase shell, or wait for the balancer chore)\n");
        assertThat(out).doesNotExist();
    }

    @Test
    void noLibraBeanMeansNotLibrasBalancerOrAStandbyMaster() throws IOException {
        master.body = recorded("no-bean.json");
        Cli.Result r = capture();
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url() + ": no io.libra:type=BalancerSnapshot bean: this master does not run "
                + "Libra's balancer (hbase.master.loadbalancer.class), or it is a standby master: capture from the active one\n");
    }

    @Test
    void anAnswerThatIsNotFromJmxIsBadInput() throws IOException {
        master.body = Files.readAllBytes(ExamplesTest.EXAMPLES.resolve("ycsb-a-4nodes.snapshot.json"));
        Cli.Result bare = capture();
        assertThat(bare.code()).isEqualTo(2);
        assertThat(bare.err()).isEqualTo("libra: " + url() + ": not a /jmx answer (no \"beans\" list): "
                + "is this the master's info port (default 16010)?\n");
        master.body = "<html><body>HBase</body></html>".getBytes(StandardCharsets.UTF_8);
        assertThat(capture().err()).isEqualTo(bare.err());
    }

    @Test
    void aBadSnapshotInsideTheBeanNamesTheFieldAndNothingIsWritten() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode answer = (ObjectNode) json.readTree(recorded("snapshot.json"));
        ObjectNode bean = (ObjectNode) answer.path("beans").get(0);
        bean.put("Snapshot", bean.path("Snapshot").asText().replace("\"windowSeconds\" : 60", "\"windowSeconds\" : -60"));
        master.body = json.writeValueAsBytes(answer);
        Path out = dir.resolve("window.json");
        Cli.Result r = capture("--out", out.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith(url() + " beans[0].Snapshot: windowSeconds: ");
        assertThat(out).doesNotExist();
    }

    @Test
    void kerberosPointsToCurlNegotiate() {
        master.status = 401;
        master.headers = Map.of("WWW-Authenticate", "Negotiate");
        master.body = "<html><h2>HTTP ERROR 401 Authentication required</h2></html>".getBytes(StandardCharsets.UTF_8);
        Cli.Result r = capture();
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url() + ": HTTP 401: the server asks for Kerberos (SPNEGO), which libra "
                + "does not do: kinit, then curl --negotiate -u : '" + url() + "' | jq -r '.beans[0].Snapshot' > window.json, "
                + "and plan from that file\n");
    }

    @Test
    void aMasterThatDoesNotAnswerTimesOutInOneLine() {
        master.hang = true;
        Cli.Result r = Cli.run("snapshot", "capture", "--hbase-master", master.address(), "--timeout", "1");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url() + ": no answer within 1 s (--timeout)\n");
    }

    @Test
    void anUnknownHostIsNamed() {
        Cli.Result r = Cli.run("snapshot", "capture", "--hbase-master", "no-such-master.invalid", "--timeout", "120");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: http://no-such-master.invalid:16010" + QUERY
                + ": unknown host 'no-such-master.invalid'\n");
    }

    @Test
    void aPathOtherThanJmxIsRefused() {
        Cli.Result r = Cli.run("snapshot", "capture", "--hbase-master", "master1:16010/master-status");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("libra: --hbase-master: expected HOST[:PORT] or http(s)://HOST[:PORT], "
                + "got 'master1:16010/master-status' (use --from for a full URL)\n");
    }
}
