package io.libra.it.cassandra;

import io.libra.it.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sidecar as an operator runs it: its own JVM from the shaded jar ({@code java -jar
 * libra-cassandra.jar --config ...}), output to a log file, killable with SIGKILL.
 */
final class SidecarProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private SidecarProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts it and waits until its API answers /health. */
    static SidecarProcess start(Path config, int port, Path log) throws IOException {
        Path jar = Path.of(System.getProperty("sidecar.jar", "../../libra-cassandra/target/libra-cassandra.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("sidecar.jar: no shaded sidecar jar at " + jar + " (package libra-cassandra first)");
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "-Xmx256m", "-jar", jar.toString(), "--config",
                config.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        SidecarProcess s = new SidecarProcess(p, log);
        SidecarHttp api = new SidecarHttp(port);
        try {
            Poll.until(Duration.ofSeconds(60), "the sidecar process to answer /health", () -> {
                if (!p.isAlive()) {
                    throw new AssertionError("the sidecar exited with " + p.exitValue() + ": " + s.logTail());
                }
                return api.get("/api/v1/health").status() == 200;
            });
        } catch (RuntimeException | AssertionError e) {
            s.kill();
            throw e;
        }
        return s;
    }

    /** SIGKILL: no shutdown hook, no journal write, nothing closed. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then SIGKILL if it has not stopped within 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }
}
