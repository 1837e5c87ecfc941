package io.libra.cassandra.exec;

import io.libra.cassandra.jmx.RingOps;
import io.libra.cassandra.time.Sleeper;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A single-token ring in memory, for the executor's tests: moves change tokens at once (or fail,
 * or leave the node MOVING), nodes can be down, and every cleanup and throughput setting is recorded.
 * Its clock advances only when the executor sleeps, so timeouts cost no real time.
 */
final class FakeRing {
    final Map<String, Node> nodes = new LinkedHashMap<>();
    /** Keyspace → SimpleStrategy factor, unless {@link #replication} gives the keyspace's replication as Cassandra writes it. */
    final Map<String, Integer> rf = new LinkedHashMap<>();
    final Map<String, String> replication = new LinkedHashMap<>();
    final List<String> cleanups = Collections.synchronizedList(new ArrayList<>());
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());

    FakeRing(long... tokens) {
        for (int i = 0; i < tokens.length; i++) {
            Node n = new Node("n" + (i + 1), "127.0.0." + (i + 1));
            n.token = tokens[i];
            nodes.put(n.id, n);
        }
        rf.put("ks", 1);
    }

    private List<String> replicated() {
        java.util.Set<String> ks = new java.util.TreeSet<>(rf.keySet());
        ks.addAll(replication.keySet());
        return List.copyOf(ks);
    }

    List<RingOps> ops() {
        return List.copyOf(nodes.values());
    }

    Node node(String id) {
        return nodes.get(id);
    }

    final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };

    /**
     * Advances the fake clock instead of waiting (yielding so the test thread can look in). A hung
     * move must have begun (its node MOVING) before fake time passes, and any other move's thread
     * must have ended, however late either is scheduled: otherwise the watch can run out a move
     * timeout on the fake clock while the move's real thread has not yet run.
     */
    /** How MoveWatch names the thread that makes a node's move call. */
    private static final String MOVE_THREAD = "libra-move-";

    final Sleeper sleeper = d -> {
        for (Node n : nodes.values()) {
            if (n.moveHangs != null && !n.moveBegan.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException(n.id + "'s hung move did not begin within 10 s");
            }
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            Node n = t.getName().startsWith(MOVE_THREAD) ? nodes.get(t.getName().substring(MOVE_THREAD.length())) : null;
            if (n != null && n.moveHangs == null) {
                t.join(10_000);
            }
        }
        millis.addAndGet(d.toMillis());
        Thread.yield();
        return true;
    };

    /** One fake node. */
    final class Node implements RingOps {
        final String id;
        final String host;
        volatile long token;
        volatile boolean down;
        volatile String mode = "NORMAL";
        volatile String dc = "dc1";
        volatile String rack = "rack1";
        /** Thrown by the next move, if set. */
        volatile IOException moveFails;
        /** A move that fails this way also leaves the node MOVING (its streaming failed). */
        volatile boolean moveLeavesMoving;
        /** The operator's caps: [stream, entire SSTable]. */
        volatile double[] caps = {10, 20};
        volatile int cleanupStatus;
        volatile int hints;
        /** When positive, that call of pendingHints (counting from 1) sees one hint: written and delivered at once. */
        volatile int hintOnCall;
        private final java.util.concurrent.atomic.AtomicInteger hintCalls = new java.util.concurrent.atomic.AtomicInteger();
        volatile int repairs;
        volatile long freeDisk = 1L << 40;
        /** How many of the next free-disk reads fail as a JMX connection that blinks. */
        final java.util.concurrent.atomic.AtomicInteger freeDiskFailures = new java.util.concurrent.atomic.AtomicInteger();
        volatile boolean schemaDisagrees;
        /** When set, a move blocks until it opens (a hung stream). */
        volatile java.util.concurrent.CountDownLatch moveHangs;
        /** Opens once a move call has reached this node. */
        final java.util.concurrent.CountDownLatch moveBegan = new java.util.concurrent.CountDownLatch(1);

        Node(String id, String host) {
            this.id = id;
            this.host = host;
        }

        private void up() throws IOException {
            if (down) {
                throw new IOException("cannot connect to JMX at " + host + ":7199: Connection refused");
            }
        }

        /** The answer of a reachable node: {@code value}, or the refusal of one that is down. */
        private <T> T up(T value) throws IOException {
            up();
            return value;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String host() {
            return host;
        }

        @Override
        public String operationMode() throws IOException {
            return up(mode);
        }

        @Override
        public List<String> nodes(String attribute) throws IOException {
            up();
            List<String> out = new ArrayList<>();
            for (Node n : nodes.values()) {
                boolean match = switch (attribute) {
                    case "UnreachableNodes" -> n.down;
                    case "MovingNodes" -> n.mode.equals("MOVING");
                    default -> false;
                };
                if (match) {
                    out.add("/" + n.host);
                }
            }
            return out;
        }

        @Override
        public List<String> tokens() throws IOException {
            return up(List.of(Long.toString(token)));
        }

        @Override
        public Map<String, String> tokenToEndpoint() throws IOException {
            up();
            Map<String, String> m = new LinkedHashMap<>();
            nodes.values().forEach(n -> m.put(Long.toString(n.token), n.host));
            return m;
        }

        @Override
        public List<String> keyspaces() throws IOException {
            return up(replicated());
        }

        @Override
        public String replicationInfo(String keyspace) throws IOException {
            up();
            String info = replication.get(keyspace);
            return info != null ? info : "SimpleStrategy {replication_factor=" + rf.get(keyspace) + "}";
        }

        @Override
        public String datacenter() throws IOException {
            return up(dc);
        }

        @Override
        public String rack() throws IOException {
            return up(rack);
        }

        @Override
        public int currentStreams() throws IOException {
            return up(0);
        }

        @Override
        public void move(String newToken, Duration limit) throws IOException {
            up();
            log.add("move " + id + " " + newToken);
            java.util.concurrent.CountDownLatch hang = moveHangs;
            if (hang != null) {
                mode = "MOVING";
                moveBegan.countDown();
                try {
                    hang.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("stream session failed");
            }
            IOException fails = moveFails;
            if (fails != null) {
                if (moveLeavesMoving) {
                    mode = "MOVING";
                }
                throw fails;
            }
            token = Long.parseLong(newToken);
        }

        @Override
        public List<String> replicatedKeyspaces() throws IOException {
            return up(replicated());
        }

        @Override
        public int cleanup(String keyspace, Duration limit) throws IOException {
            up();
            if (cleanupStatus == 0) {
                cleanups.add(id + ":" + keyspace);
            }
            return cleanupStatus;
        }

        @Override
        public double[] streamThroughput() throws IOException {
            return up(caps.clone());
        }

        @Override
        public void setStreamThroughput(int mibPerSec, int entireSstableMibPerSec) throws IOException {
            up();
            caps = new double[] {mibPerSec, entireSstableMibPerSec};
        }

        @Override
        public Map<String, List<String>> schemaVersions() throws IOException {
            up();
            Map<String, List<String>> m = new LinkedHashMap<>();
            m.put("v1", List.of(host));
            if (schemaDisagrees) {
                m.put("v2", List.of("127.0.0.9"));
            }
            return m;
        }

        @Override
        public int pendingHints() throws IOException {
            up();
            return hintCalls.incrementAndGet() == hintOnCall ? hints + 1 : hints;
        }

        @Override
        public int repairSessions() throws IOException {
            return up(repairs);
        }

        @Override
        public long freeDiskBytes() throws IOException {
            up();
            if (freeDiskFailures.getAndUpdate(k -> Math.max(0, k - 1)) > 0) {
                throw new IOException("JMX at " + host + ":7199: connection reset");
            }
            return freeDisk;
        }
    }
}
