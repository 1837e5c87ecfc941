package io.libra.cassandra.allocator;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs Cassandra's own token allocator ({@code allocate_tokens_for_local_replication_factor}) on
 * a ring, so the add-node advice can be compared with what a node left to allocate its own tokens
 * would take. It runs {@link TokenAllocatorMain} in a child JVM on the node's Cassandra jars
 * ({@code <home>/*} and {@code <home>/lib/*}: the tarball's layout and the Debian package's), so
 * the allocator is the installed release's, and cassandra-all never loads into the sidecar.
 *
 * @param home    a Cassandra installation: the directory holding its jar (or {@code lib/} holding it)
 * @param java    the JVM to run the allocator in (Cassandra's supported JDKs)
 * @param timeout how long one run may take before it is killed
 */
public record CassandraAllocator(Path home, Path java, Duration timeout) {
    private static final String MAIN = TokenAllocatorMain.class.getName();
    private static final String TOKENS = "TOKENS ";

    /** The sidecar's own JVM: the same JDK 17 Cassandra 5.0 runs on. */
    public static Path currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * Why {@code home} is not a Cassandra installation (no {@code apache-cassandra-*.jar} or
     * {@code cassandra-all-*.jar} in it or in its {@code lib/}); empty when it is one.
     */
    public static Optional<String> problem(Path home) {
        if (!Files.isDirectory(home)) {
            return Optional.of("not a directory: " + home);
        }
        if (hasCassandraJar(home) || hasCassandraJar(home.resolve("lib"))) {
            return Optional.empty();
        }
        return Optional.of("no Cassandra jar (apache-cassandra-*.jar or cassandra-all-*.jar) in " + home
                + " or " + home.resolve("lib"));
    }

    private static boolean hasCassandraJar(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "{apache-cassandra,cassandra-all}-*.jar")) {
            return jars.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The tokens Cassandra's allocator gives {@code count} nodes joining one after another.
     *
     * @param rf        {@code allocate_tokens_for_local_replication_factor}
     * @param numTokens each joining node's {@code num_tokens}
     * @param members   each ring member's tokens
     * @throws AllocatorException one line: what failed, for the advice's answer and the log
     */
    public List<List<Long>> allocate(int rf, int numTokens, int count, List<List<Long>> members) {
        Path dir = null;
        Process p = null;
        try {
            dir = Files.createTempDirectory("libra-allocator");
            Path out = dir.resolve("allocator.out");
            p = start(dir, out, rf, numTokens, count);
            feed(p, members);
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AllocatorException("Cassandra's allocator did not finish in " + timeout.toSeconds() + " s");
            }
            return parse(Files.readString(out, StandardCharsets.UTF_8), p.exitValue(), count);
        } catch (IOException e) {
            throw new AllocatorException("Cassandra's allocator could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AllocatorException("Cassandra's allocator was interrupted");
        } finally {
            kill(p);
            delete(dir);
        }
    }

    private Process start(Path dir, Path out, int rf, int numTokens, int count) throws IOException {
        Path classes = dir.resolve("classes");
        Path cls = classes.resolve(MAIN.replace('.', '/') + ".class");
        Files.createDirectories(cls.getParent());
        try (InputStream in = CassandraAllocator.class.getResourceAsStream("TokenAllocatorMain.class")) {
            if (in == null) {
                throw new IOException("TokenAllocatorMain.class is missing from the sidecar's jar");
            }
            Files.write(cls, in.readAllBytes());
        }
        String cp = String.join(File.pathSeparator, home + "/*", home.resolve("lib") + "/*", classes.toString());
        List<String> cmd = List.of(java.toString(), "-Xmx256m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
                "-cp", cp, MAIN, Integer.toString(rf), Integer.toString(numTokens), Integer.toString(count));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    private static void feed(Process p, List<List<Long>> members) throws IOException {
        try (OutputStream in = p.getOutputStream()) {
            for (List<Long> tokens : members) {
                String line = tokens.stream().map(String::valueOf).collect(Collectors.joining(",")) + "\n";
                in.write(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            if (p.isAlive()) {
                throw e;
            }
            // it exited before reading its input: its output says why
        }
    }

    /** Each joining node's tokens, sorted, from the child's output; else one line of why not. */
    static List<List<Long>> parse(String output, int exit, int count) {
        List<List<Long>> nodes = new ArrayList<>();
        output.lines().filter(l -> l.startsWith(TOKENS)).forEach(l -> nodes.add(Arrays.stream(
                l.substring(TOKENS.length()).split(",")).map(Long::parseLong).sorted().toList()));
        if (exit == 0 && nodes.size() == count) {
            return nodes;
        }
        List<String> thrown = output.lines().filter(l -> !l.isEmpty() && !Character.isWhitespace(l.charAt(0))
                && (l.contains("Exception") || l.contains("Error"))).toList();
        String why = thrown.stream().filter(l -> l.startsWith("Caused by: ")).reduce((a, b) -> b)
                .or(() -> thrown.stream().findFirst())
                .orElse(output.lines().reduce((a, b) -> b).orElse(nodes.size() + " of " + count + " nodes' tokens, no error"));
        throw new AllocatorException("Cassandra's allocator failed (exit " + exit + "): " + why.strip());
    }

    /** A run timed out, or the sidecar is stopping: no JVM is left behind. */
    private static void kill(Process p) {
        if (p == null || !p.isAlive()) {
            return;
        }
        try {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** The allocator could not give tokens; the message is one line. */
    public static final class AllocatorException extends RuntimeException {
        public AllocatorException(String message) {
            super(message);
        }
    }
}
