package io.libra.it.cassandra;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.CassandraNode;
import io.libra.cassandra.jmx.JmxNode;
import io.libra.it.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Three real Cassandra nodes; every process is stopped by {@link #close()} and, should the
 * test JVM die first, by a shutdown hook.
 */
final class Ring implements AutoCloseable {
    /** Three single tokens, unbalanced: n1 owns ~35% of the ring, n2 ~16%, n3 ~49%. */
    static final long[] SKEWED = {-9_000_000_000_000_000_000L, -6_000_000_000_000_000_000L, 3_000_000_000_000_000_000L};
    /** A joining node also streams its ranges in (74 s measured on a loaded 2-core machine): twice a start's bound. */
    private static final Duration BOOTSTRAP = Duration.ofSeconds(300);
    final List<NodeProcess> nodes = new ArrayList<>();
    private final List<CassandraNode> jmx = new ArrayList<>();
    private final Path javaHome;
    private final Path lib;
    private final Path work;
    private final Thread hook = new Thread(this::killAll, "ring-shutdown");

    /** The JDK 17 the nodes run on. */
    Path javaHome() {
        return javaHome;
    }

    /** The nodes' libraries (cassandra-dist's lib directory). */
    Path lib() {
        return lib;
    }

    /** How the i-th node (0-based) is made, in the working directory. */
    private interface Member {
        NodeProcess of(int i, Path work);
    }

    /** A single-token ring, node i at tokens[i]. */
    Ring(long[] tokens) throws IOException {
        this(tokens.length, (i, work) -> new NodeProcess(i + 1, tokens[i], work));
    }

    /** A single-token ring, node i at tokens[i] in data centre dcs[i], rack racks[i] (GossipingPropertyFileSnitch). */
    static Ring placed(long[] tokens, String[] dcs, String[] racks) throws IOException {
        return new Ring(tokens.length, (i, work) -> {
            NodeProcess n = new NodeProcess(i + 1, tokens[i], work);
            n.dc = dcs[i];
            n.rack = racks[i];
            return n;
        });
    }

    /** A vnode ring: each node takes {@code numTokens} tokens of Cassandra's choosing. */
    static Ring vnodes(int count, int numTokens) throws IOException {
        return new Ring(count, (i, work) -> new NodeProcess(i + 1, 0, numTokens, work));
    }

    private Ring(int count, Member member) throws IOException {
        this.javaHome = Path.of(System.getProperty("cassandra.java.home", "/usr/lib/jvm/java-17-openjdk-amd64"));
        this.lib = Path.of(System.getProperty("cassandra.lib", "../cassandra-dist/target/lib"));
        this.work = Path.of(System.getProperty("cassandra.workdir", "target/cassandra-it"));
        if (!Files.isRegularFile(javaHome.resolve("bin/java"))) {
            throw new IllegalStateException("cassandra.java.home: no JDK 17 at " + javaHome);
        }
        try (Stream<Path> jars = Files.list(lib)) {
            if (jars.noneMatch(p -> p.getFileName().toString().startsWith("cassandra-all"))) {
                throw new IllegalStateException("cassandra.lib: no cassandra-all jar in " + lib + " (build cassandra-dist first)");
            }
        }
        deleteTree(work);
        for (int i = 0; i < count; i++) {
            NodeProcess n = member.of(i, work);
            n.writeConfig();
            nodes.add(n);
            jmx.add(new CassandraNode(new JmxNode(instance(n))));
        }
        Runtime.getRuntime().addShutdownHook(hook);
    }

    static SidecarConfig.Instance instance(NodeProcess n) {
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.id = n.id();
        in.host = n.host;
        in.jmxHost = "127.0.0.1";
        in.jmxPort = n.jmxPort;
        return in;
    }

    CassandraNode jmx(int i) {
        return jmx.get(i);
    }

    /** Starts the seed, then the others together, and waits until all three see each other. */
    void start() throws Exception {
        start(nodes.get(0));
        ExecutorService pool = Executors.newFixedThreadPool(nodes.size());
        try {
            List<Future<?>> started = new ArrayList<>();
            for (NodeProcess n : nodes.subList(1, nodes.size())) {
                started.add(pool.submit(() -> {
                    start(n);
                    return null;
                }));
            }
            for (Future<?> f : started) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        awaitAllUp();
    }

    void start(NodeProcess n) throws IOException {
        start(n, Duration.ofSeconds(150));
    }

    private void start(NodeProcess n, Duration limit) throws IOException {
        n.start(javaHome, lib);
        CassandraNode c = jmx.get(n.index - 1);
        Poll.until(limit, n.id() + " to serve CQL and be NORMAL", () -> {
            if (!n.alive()) {
                throw new AssertionError(n.id() + " exited during startup:\n" + n.logTail());
            }
            try {
                return n.cqlOpen() && "NORMAL".equals(c.operationMode());
            } catch (IOException e) {
                return false;
            }
        });
    }

    /**
     * Bootstraps one more single-token node at {@code token} into the running ring (it streams its
     * ranges in) and waits until every node sees it live.
     */
    NodeProcess join(long token) throws IOException {
        return join(new NodeProcess(nodes.size() + 1, token, work));
    }

    /** As {@link #join(long)} for a vnode node taking {@code tokens} (signed decimal) as its initial_token. */
    NodeProcess join(List<String> tokens) throws IOException {
        NodeProcess n = new NodeProcess(nodes.size() + 1, 0, tokens.size(), work);
        n.initialTokens = String.join(",", tokens);
        return join(n);
    }

    private NodeProcess join(NodeProcess n) throws IOException {
        n.bootstrap = true;
        n.writeConfig();
        nodes.add(n);
        jmx.add(new CassandraNode(new JmxNode(instance(n))));
        start(n, BOOTSTRAP);
        awaitAllUp();
        return n;
    }

    void awaitAllUp() {
        Poll.until(Duration.ofSeconds(90), "every node to see " + nodes.size() + " live nodes", () -> {
            for (CassandraNode c : jmx) {
                try {
                    if (c.nodes("LiveNodes").size() != nodes.size() || !c.nodes("UnreachableNodes").isEmpty()) {
                        return false;
                    }
                } catch (IOException e) {
                    return false;
                }
            }
            return true;
        });
    }

    long token(int i) throws IOException {
        return Long.parseLong(jmx.get(i).tokens().get(0));
    }

    private void killAll() {
        nodes.forEach(NodeProcess::kill);
    }

    @Override
    public void close() {
        jmx.forEach(c -> c.jmx().close());
        // SIGKILL, all at once: the test has read back what it needs, and the next ring deletes
        // this one's directory; a graceful drain took 5-12 s per node, two nodes at a time
        killAll();
        nodes.forEach(NodeProcess::awaitExit);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs anyway
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path x : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
