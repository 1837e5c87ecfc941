package io.libra.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.jmx.FakeCassandraJmx;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher: every startup failure is one line on stderr and a non-zero exit, and nothing keeps running. */
class MainTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Main main = new Main(new PrintWriter(out, true), new PrintWriter(err, true));
        int code = Main.commandLine(main, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        main.stop();
        return new Run(code, out.toString(), err.toString());
    }

    private Path config(int httpPort, int jmxPort, String journal) throws IOException {
        return Files.writeString(dir.resolve("sidecar.yaml"), String.join("\n",
                "instances:", "  - {id: n1, host: 127.0.0.1, jmx_port: " + jmxPort + "}",
                "http: {port: " + httpPort + ", auth_token: s3cret}",
                "collection: {window_seconds: 30}",
                "execution: {journal: " + journal + "}",
                "jmx: {connect_timeout_seconds: 2}", ""));
    }

    static void assertOneLine(Run r, int code, String startsWith) {
        assertThat(r.code()).as(r.err()).isEqualTo(code);
        assertThat(r.err()).startsWith("libra-sidecar: " + startsWith);
        assertThat(r.err().strip()).doesNotContain("\n").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void helpListsEveryOptionAndVersionWorks() {
        Run help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: libra-sidecar", "--config=FILE", "--check", "--help", "--version",
                "Exit codes:");
        Run version = run("--version");
        assertThat(version.code()).isZero();
        assertThat(version.out()).startsWith("libra-sidecar ");
    }

    @Test
    void usageMistakesAreOneLine() {
        assertOneLine(run(), 2, "--config=FILE is required (see libra-sidecar --help)");
        assertOneLine(run("--config", "x.yaml", "--frobnicate"), 2, "Unknown option: '--frobnicate'");
    }

    @Test
    void aBadConfigIsOneLineAndExitTwo() throws IOException {
        assertOneLine(run("--config", dir.resolve("missing.yaml").toString()), 2, dir.resolve("missing.yaml")
                + ": cannot read: no such file");
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "cluster_name: [a]\ninstances: [{id: a}]\n");
        assertOneLine(run("--config", bad.toString()), 2, bad + ": cluster_name: must be a single value (text), got a list");
    }

    @Test
    void aTakenPortExitsOneWithOneLineAndLeavesNoServerThreads() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Run r = run("--config", config(taken.getLocalPort(), 1, dir.resolve("j.json").toString()).toString());
            assertOneLine(r, 1, "http.port: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ");
            assertThat(r.err()).contains("Address already in use");
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && !t.isDaemon()
                && t.getName().startsWith("nioEventLoopGroup"))) {
            assertThat(System.nanoTime()).as("the server's threads end within 10 s").isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
    }

    @Test
    void aJournalDirectoryThatDoesNotExistExitsOne() throws IOException {
        Path journal = dir.resolve("no-such-dir/journal.json");
        assertOneLine(run("--config", config(0, 1, journal.toString()).toString()), 1,
                "execution.journal: directory " + journal.getParent() + " does not exist");
    }

    @Test
    void noNodeAnsweringJmxExitsOne() throws IOException {
        Run r = run("--config", config(0, 1, dir.resolve("j.json").toString()).toString());
        assertOneLine(r, 1, "JMX: no node answers: n1: cannot connect to JMX at 127.0.0.1:1: ");
        assertThat(r.err()).contains("docs/cassandra.md");
    }

    @Test
    void checkStartsAgainstANodeThatAnswersAndSaysWhenTheFirstWindowComes() throws Exception {
        try (FakeCassandraJmx node = new FakeCassandraJmx(List.of("0"))) {
            Run r = run("--config", config(0, node.port(), dir.resolve("j.json").toString()).toString(), "--check");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("JMX answers on 1/1 node(s)")
                    .contains("the first window ends at about ").contains("(collection.window_seconds: 30)")
                    .contains("dry run").contains("--check passed");
        }
    }

    @Test
    void aVnodeRingIsDetectedAtStartupAndObservedOnly() throws Exception {
        try (FakeCassandraJmx node = new FakeCassandraJmx(List.of("-100", "0", "100", "200"))) {
            Run r = run("--config", config(0, node.port(), dir.resolve("j.json").toString()).toString(), "--check");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("vnode ring: observe-only");
        }
    }
}
