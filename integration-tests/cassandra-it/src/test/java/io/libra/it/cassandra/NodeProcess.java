package io.libra.it.cassandra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Cassandra 5.0 node as its own JDK 17 JVM, run from cassandra-dist's lib directory (so
 * cassandra-all never joins the test's classpath), on 127.0.0.N with JMX on port N*100+7000.
 */
final class NodeProcess implements AutoCloseable {
    /** How long a moving node waits for the ring to learn its pending ranges (test setting, Cassandra's is 30 s). */
    private static final int RING_DELAY_MS = 5000;
    /** The same for a bootstrapping node: Cassandra's default. */
    private static final int BOOTSTRAP_RING_DELAY_MS = 30_000;

    final int index;
    final String host;
    final int jmxPort;
    final long initialToken;
    /** 1: a single token, {@link #initialToken}; more: vnodes, tokens chosen by Cassandra. */
    final int numTokens;
    private final Path dir;
    private Process process;
    /** A node joining a running ring streams its ranges in (auto_bootstrap: true); the first ones do not. */
    boolean bootstrap;
    /** A vnode node's own tokens (comma-separated, signed decimal), or null: Cassandra chooses them. */
    String initialTokens;
    /** Null: SimpleSnitch (datacenter1, rack1); else GossipingPropertyFileSnitch with this rack in {@link #dc}. */
    String rack;
    String dc = "dc1";

    NodeProcess(int index, long initialToken, Path workDir) {
        this(index, initialToken, 1, workDir);
    }

    NodeProcess(int index, long initialToken, int numTokens, Path workDir) {
        this.index = index;
        this.host = "127.0.0." + index;
        this.jmxPort = 7000 + 100 * index;
        this.initialToken = initialToken;
        this.numTokens = numTokens;
        this.dir = workDir.resolve("node" + index);
    }

    String id() {
        return "n" + index;
    }

    Path log() {
        return dir.resolve("stdout.log");
    }

    void writeConfig() throws IOException {
        Files.createDirectories(dir);
        String yaml = String.join("\n",
                "cluster_name: libra-it",
                "num_tokens: " + numTokens,
                numTokens == 1 ? "initial_token: " + initialToken
                        : initialTokens != null ? "initial_token: " + initialTokens : "# vnodes: Cassandra chooses the tokens",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "commitlog_sync: periodic",
                "commitlog_sync_period: 10000ms",
                "endpoint_snitch: " + (rack == null ? "SimpleSnitch" : "GossipingPropertyFileSnitch"),
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"127.0.0.1:7000\"",
                "listen_address: " + host,
                "rpc_address: " + host,
                "storage_port: 7000",
                "native_transport_port: 9042",
                "auto_bootstrap: " + bootstrap,
                "concurrent_compactors: 1",
                "data_file_directories:",
                "  - " + dir.resolve("data"),
                "commitlog_directory: " + dir.resolve("commitlog"),
                "saved_caches_directory: " + dir.resolve("saved_caches"),
                "hints_directory: " + dir.resolve("hints"),
                "cdc_raw_directory: " + dir.resolve("cdc_raw"),
                "");
        Files.writeString(dir.resolve("cassandra.yaml"), yaml);
        if (rack != null) { // read from the classpath, which starts with this directory
            Files.writeString(dir.resolve("cassandra-rackdc.properties"), "dc=" + dc + "\nrack=" + rack + "\n");
        }
        Files.writeString(dir.resolve("logback.xml"), String.join("\n",
                "<configuration>",
                "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">",
                "    <file>" + dir.resolve("system.log") + "</file>",
                "    <encoder><pattern>%d %-5level [%thread] %logger{20} - %msg%n</pattern></encoder>",
                "  </appender>",
                "  <logger name=\"org.apache.cassandra\" level=\"INFO\"/>",
                "  <root level=\"WARN\"><appender-ref ref=\"FILE\"/></root>",
                "</configuration>", ""));
    }

    synchronized void start(Path javaHome, Path lib) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaHome.resolve("bin/java").toString());
        cmd.addAll(jvmOptions());
        cmd.addAll(List.of("-Xms512m", "-Xmx512m", "-XX:MaxDirectMemorySize=256m", "-Xss512k",
                "-XX:ActiveProcessorCount=2",
                // C1 only: a (re)started node reaches steady CPU in seconds, so the CPU measured
                // before and after the moves compares load, not JIT warm-up (test-only setting)
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                "-Dcassandra.config=" + dir.resolve("cassandra.yaml").toUri(),
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + dir,
                "-Dlogback.configurationFile=" + dir.resolve("logback.xml").toUri(),
                "-Dcassandra.jmx.local.port=" + jmxPort,
                "-Dcassandra-foreground=yes",
                // a node that bootstraps under writes waits Cassandra's default ring delay before it streams:
                // with the test setting (5 s) on a loaded two-core machine, a coordinator that had not yet
                // learnt its pending ranges acknowledged 4 of 30,000 RF 1 keys at ALL that the new owner never got
                "-Dcassandra.ring_delay_ms=" + (bootstrap ? BOOTSTRAP_RING_DELAY_MS : RING_DELAY_MS),
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-cp", dir.toAbsolutePath() + java.io.File.pathSeparator + lib.toAbsolutePath() + "/*",
                "org.apache.cassandra.service.CassandraDaemon"));
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile())).start();
    }

    private static List<String> jvmOptions() throws IOException {
        try (InputStream in = NodeProcess.class.getResourceAsStream("/jvm17-node.options")) {
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.trim();
                if (!l.isEmpty() && !l.startsWith("#")) {
                    out.add(l);
                }
            }
            return out;
        }
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    synchronized long pid() {
        return process.pid();
    }

    /** True once CQL accepts connections on this node. */
    boolean cqlOpen() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, 9042), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.exists(dir.resolve("system.log"))
                    ? Files.readAllLines(dir.resolve("system.log")) : Files.readAllLines(log());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Graceful stop (SIGTERM, Cassandra drains), then kill after 30 s. */
    synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    /** Waits up to 30 s for the process to be gone (its ports free for the next ring). */
    void awaitExit() {
        Process p;
        synchronized (this) {
            p = process;
        }
        try {
            if (p != null && !p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(id() + " (pid " + p.pid() + ") still runs 30 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
