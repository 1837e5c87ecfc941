package io.libra.cassandra.collect;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.CassandraNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import io.libra.cassandra.time.Sleeper;
import java.time.Clock;

/**
 * Measures one window over JMX: counters read at both ends (CPU time, disk bytes, per-table
 * request counts) and the partition samplers (reads, writes, bytes written) run on every table
 * for a burst at its start.
 */
public final class Collector {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Collector.class);
    private static final int TOKEN_CACHE = 100_000;
    /**
     * The partition samplers run on every table: requests read and written, and the bytes written
     * (each update's data size), which places disk that request counts alone cannot.
     */
    private static final List<String> SAMPLERS = List.of("READS", "WRITES", "WRITE_SIZE");
    /** Index of WRITE_SIZE in {@link #SAMPLERS}: it counts bytes, not operations. */
    private static final int WRITE_SIZE = 2;
    private final List<CassandraNode> nodes;
    private final SidecarConfig config;
    private final Map<String, Long> tokenCache = new LinkedHashMap<>(1024, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > TOKEN_CACHE;
        }
    };

    private final Clock clock;
    /** Whether the partition samplers run (off on vnode rings unless collection.sampling: on). */
    private volatile boolean sampling = true;

    public Collector(List<CassandraNode> nodes, SidecarConfig config) {
        this(nodes, config, Clock.systemUTC());
    }

    /** With the clock that stamps the window's ends and measures its length. */
    public Collector(List<CassandraNode> nodes, SidecarConfig config, Clock clock) {
        this.nodes = List.copyOf(nodes);
        this.config = config;
        this.clock = clock;
    }

    public void sampling(boolean on) {
        this.sampling = on;
    }

    /** A table and its replication factor. */
    record TableRef(String keyspace, String table, int rf) {
    }

    /** Counters at the start of a window. */
    /**
     * Counters at the start of a window.
     *
     * @param at when they were read (the middle of the reads): each node's rates are over its own
     *           interval, since nodes are read one after another
     */
    private record Start(long cpu, long disk, String diskSource, Map<TableRef, long[]> counts, boolean sampled, Instant at) {
    }

    /** Measures one window, waiting its length with {@code sleeper}; a sleep cut short marks the window. */
    public Window collect(Sleeper sleeper) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Schema schema = schema(problems);
        List<TableRef> tables = schema.tables();
        Instant start = clock.instant();
        Map<String, Start> starts = new HashMap<>();
        Map<String, String> errors = new HashMap<>();
        // a burst at the window's start, not the whole window: the samplers are free the rest of the
        // time (for an operator's toppartitions, and for the nodes' own sake); shares, not counts, are used
        int burstMs = Math.min(config.collection.windowSeconds, config.collection.sampleSeconds) * 1000;
        for (CassandraNode n : nodes) {
            try {
                starts.put(n.id(), begin(n, tables, burstMs, problems));
            } catch (IOException | RuntimeException e) {
                errors.put(n.id(), oneLine(e));
            }
        }
        boolean stopped = !sleeper.sleep(Duration.ofSeconds(config.collection.windowSeconds));
        Instant end = clock.instant();
        double seconds = Math.max(1e-3, Duration.between(start, end).toMillis() / 1000.0);
        List<Window.NodeStat> stats = new ArrayList<>();
        List<Window.TableStat> tableStats = new ArrayList<>();
        List<Window.KeySample> samples = new ArrayList<>();
        long[] observed = new long[1];
        for (CassandraNode n : nodes) {
            Start s = starts.get(n.id());
            try {
                if (s == null) {
                    throw new IOException(errors.getOrDefault(n.id(), "unreachable"));
                }
                stats.add(finish(n, s, tableStats, samples, observed));
            } catch (IOException | RuntimeException e) {
                String why = errors.getOrDefault(n.id(), oneLine(e));
                stats.add(new Window.NodeStat(n.id(), n.jmx().instance().host, false, why, 0, 0, 0, "none", List.of(),
                        "DOWN", -1, null, null));
                problems.add("node " + n.id() + " is unreachable over JMX: " + why);
            }
        }
        long sampled = observed[0];
        long requests = Math.round(tableStats.stream().mapToDouble(t -> t.readOps() + t.writeOps()).sum() * seconds);
        if (stopped) {
            problems.add("window cut short by shutdown");
        }
        if (requests == 0) {
            problems.add("no client requests in the window: nothing to balance on");
        } else if (sampling && sampled < config.collection.minSamples) {
            problems.add("only " + sampled + " operations sampled (< collection.min_samples "
                    + config.collection.minSamples + "): too few to place load on the ring");
        }
        checkRing(stats, problems);
        checkTopology(schema, stats, problems);
        return new Window(start, end, seconds, stats, tableStats, samples, sampled, requests, problems, schema.keyspaces());
    }

    /**
     * What one node says of the schema and the ring at a window's start.
     *
     * @param replicas        per keyspace, its ranges and the replicas the ring lists for each
     * @param tokenToEndpoint the ring's tokens and their owners
     */
    record Schema(List<TableRef> tables, List<KeyspaceReplication> keyspaces,
                  Map<String, Map<List<String>, List<String>>> replicas, Map<String, String> tokenToEndpoint) {
        static final Schema NONE = new Schema(List.of(), List.of(), Map.of(), Map.of());
    }

    /** The schema from the first node that answers every question. */
    private Schema schema(List<String> problems) {
        for (CassandraNode n : nodes) {
            try {
                List<String> keyspaces = config.collection.keyspaces.isEmpty() ? n.keyspaces() : config.collection.keyspaces;
                List<TableRef> tables = new ArrayList<>();
                List<KeyspaceReplication> replication = new ArrayList<>();
                Map<String, Map<List<String>, List<String>>> replicas = new HashMap<>();
                for (String ks : keyspaces) {
                    Map<List<String>, List<String>> ranges = n.rangeToEndpoints(ks);
                    replicas.put(ks, ranges);
                    replication.add(KeyspaceReplication.parse(ks, n.replicationInfo(ks)));
                    int rf = ranges.values().stream().mapToInt(List::size).max().orElse(1);
                    for (String t : n.tables(ks)) {
                        tables.add(new TableRef(ks, t, rf));
                    }
                }
                return new Schema(tables, replication, replicas, n.tokenToEndpoint());
            } catch (IOException | RuntimeException e) {
                LOG.debug("node {} did not answer the schema questions: {}", n.id(), oneLine(e));
            }
        }
        problems.add("no node answered the schema questions over JMX");
        return Schema.NONE;
    }

    /**
     * Whether the ring model covers this ring: every member configured, each keyspace's
     * replication one core places (with the nodes' data centres and racks from this window), and the
     * replicas the ring lists are the ones that placement gives.
     */
    private void checkTopology(Schema schema, List<Window.NodeStat> stats, List<String> problems) {
        if (schema == Schema.NONE) {
            return;
        }
        java.util.Set<String> hosts = new java.util.HashSet<>();
        config.instances.forEach(in -> hosts.add(in.host));
        problems.addAll(Topology.problems(schema.tokenToEndpoint(), hosts));
        if (stats.stream().anyMatch(s -> !s.up())) {
            return; // already not plannable, and a node down hides its data centre and rack
        }
        List<String> unplaced = stats.stream().filter(s -> s.datacenter() == null || s.rack() == null)
                .map(Window.NodeStat::id).toList();
        if (!unplaced.isEmpty()) {
            problems.add("nodes " + unplaced + ": no data centre or rack from EndpointSnitchInfo, so the keyspaces' "
                    + "replica placement cannot be checked");
            return;
        }
        problems.addAll(Topology.unmodelled(schema.keyspaces(), stats));
        problems.addAll(Topology.misplaced(schema.keyspaces(), stats, schema.tokenToEndpoint(), schema.replicas()));
        for (KeyspaceReplication k : schema.keyspaces()) {
            int declared = Topology.declaredReplicas(k, stats);
            int listed = schema.replicas().getOrDefault(k.keyspace(), Map.of()).values().stream()
                    .mapToInt(List::size).max().orElse(0);
            if (declared >= 0 && declared != listed) {
                problems.add("keyspace " + k.keyspace() + ": " + k.describe() + " gives a range " + declared
                        + " replica(s) on this ring, the ring lists " + listed + " (a schema change in flight?)");
            }
        }
    }

    private Start begin(CassandraNode n, List<TableRef> tables, int burstMs, List<String> problems) throws IOException {
        Instant before = clock.instant();
        Map<TableRef, long[]> counts = new HashMap<>();
        for (TableRef t : tables) {
            counts.put(t, new long[] {n.tableCount(t.keyspace(), t.table(), "ReadLatency"),
                n.tableCount(t.keyspace(), t.table(), "WriteLatency")});
        }
        long[] disk = new long[1];
        String source = diskBytes(n, disk);
        long cpu = n.processCpuTimeNanos();
        Instant at = middle(before, clock.instant());
        boolean sampled = sampling;
        for (TableRef t : tables) {
            if (sampled) {
                sampled = beginSampling(n, t, burstMs, problems);
            }
        }
        return new Start(cpu, disk[0], source, counts, sampled, at);
    }

    private static Instant middle(Instant a, Instant b) {
        return a.plus(Duration.between(a, b).dividedBy(2));
    }

    /**
     * Starts the samplers of a table; false when one is already running (an operator's
     * {@code nodetool toppartitions}): the node is then not sampled this window, and its
     * samplers are left alone (finishing them would take the operator's results), but it is up.
     */
    private boolean beginSampling(CassandraNode n, TableRef t, int burstMs, List<String> problems) throws IOException {
        try {
            for (String sampler : SAMPLERS) {
                n.beginSampling(t.keyspace(), t.table(), sampler, config.collection.samplerCapacity, burstMs);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            if (!samplerBusy(e)) {
                throw e;
            }
            problems.add("node " + n.id() + ": a partition sampler of " + t.keyspace() + "." + t.table()
                    + " is already running (nodetool toppartitions?): backed off, its load is not placed this window");
            return false;
        }
    }

    /** Cassandra's sampler refuses a second session with "Sampling already in progress". */
    static boolean samplerBusy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("already in progress")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The node's counters first, timed on their own interval since its {@link Start} (a node read
     * later in the loop has had longer, and dividing by the window's length would make it look
     * busier), then its samplers, whose keys take a JMX call each.
     */
    private Window.NodeStat finish(CassandraNode n, Start s, List<Window.TableStat> tableStats,
                                   List<Window.KeySample> samples, long[] observedOps) throws IOException {
        Instant before = clock.instant();
        long cpu = n.processCpuTimeNanos();
        long[] disk = new long[1];
        String source = diskBytes(n, disk);
        if (!source.equals(s.diskSource())) {
            throw new IOException("disk source changed during the window (" + s.diskSource() + " -> " + source + ")");
        }
        Map<TableRef, long[]> counts = new HashMap<>();
        for (TableRef t : s.counts().keySet()) {
            counts.put(t, new long[] {n.tableCount(t.keyspace(), t.table(), "ReadLatency"),
                n.tableCount(t.keyspace(), t.table(), "WriteLatency")});
        }
        double seconds = Math.max(1e-3, Duration.between(s.at(), middle(before, clock.instant())).toMillis() / 1000.0);
        for (Map.Entry<TableRef, long[]> e : s.counts().entrySet()) {
            TableRef t = e.getKey();
            long reads = counts.get(t)[0] - e.getValue()[0];
            long writes = counts.get(t)[1] - e.getValue()[1];
            tableStats.add(new Window.TableStat(t.keyspace(), t.table(), t.rf(), n.id(), Math.max(0, reads) / seconds,
                    Math.max(0, writes) / seconds, n.tableBytes(t.keyspace(), t.table())));
            if (s.sampled()) {
                observedOps[0] += sampled(n, t, samples);
            }
        }
        List<Long> tokens = n.tokens().stream().map(Long::parseLong).toList();
        int cores = n.availableProcessors();
        return new Window.NodeStat(n.id(), n.jmx().instance().host, true, tokens.size() == 1 ? null
                : "node has " + tokens.size() + " tokens; token moves need num_tokens: 1", cores,
                Math.max(0, cpu - s.cpu()) / (seconds * 1e9), Math.max(0, disk[0] - s.disk()) / seconds, source,
                tokens, n.operationMode(), n.pid(), placement(n, true), placement(n, false));
    }

    /** The node's data centre (or rack) for /status; unknown (null) rather than the node down when it cannot be read. */
    private static String placement(CassandraNode n, boolean datacenter) {
        try {
            return datacenter ? n.datacenter() : n.rack();
        } catch (IOException | RuntimeException e) {
            LOG.debug("node {}: no {} from EndpointSnitchInfo: {}", n.id(), datacenter ? "data centre" : "rack", e.toString());
            return null;
        }
    }

    /**
     * Adds the table's sampled partitions to out; returns how many operations the READS and WRITES
     * samplers observed (WRITE_SIZE counts bytes, not operations).
     */
    private long sampled(CassandraNode n, TableRef t, List<Window.KeySample> out) throws IOException {
        Map<Long, long[]> byToken = new HashMap<>();
        long observed = 0;
        for (int k = 0; k < SAMPLERS.size(); k++) {
            for (CassandraNode.Sample s : n.finishSampling(t.keyspace(), t.table(), SAMPLERS.get(k),
                    config.collection.samplerCapacity)) {
                observed += k == WRITE_SIZE ? 0 : s.count();
                if (s.guaranteed() > 0) {
                    byToken.computeIfAbsent(token(n, t, s.key()), x -> new long[SAMPLERS.size()])[k] += s.guaranteed();
                }
            }
        }
        byToken.forEach((tok, c) -> out.add(new Window.KeySample(t.keyspace(), t.table(), n.id(), tok, c[0], c[1],
                c[WRITE_SIZE])));
        return observed;
    }

    /** Murmur3 token of a sampled key, computed by the node itself (exact for every key type). */
    private long token(CassandraNode n, TableRef t, String key) throws IOException {
        String cacheKey = t.keyspace() + '.' + t.table() + ':' + key;
        Long cached = tokenCache.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        long tok = Long.parseLong(n.token(t.keyspace(), t.table(), key));
        tokenCache.put(cacheKey, tok);
        return tok;
    }

    /** Fills disk[0] and says where it came from. */
    private String diskBytes(CassandraNode n, long[] disk) throws IOException {
        if (n.jmx().colocated()) {
            OptionalLong io = ProcIo.bytes(n.pid());
            if (io.isPresent()) {
                disk[0] = io.getAsLong();
                return "proc";
            }
        }
        // Cassandra counts no commit-log bytes; what entered the memtables (live data plus what
        // was flushed out of them) is what the commit log wrote, give or take framing.
        long flushed = counter(n, "type=Table,name=BytesFlushed");
        long commitLog = gauge(n, "type=Table,name=MemtableLiveDataSize") + flushed;
        disk[0] = flushed + commitLog + counter(n, "type=Compaction,name=BytesCompacted")
                + counter(n, "type=Streaming,name=TotalIncomingBytes") + counter(n, "type=Streaming,name=TotalOutgoingBytes");
        return "cassandra-counters";
    }

    private static long counter(CassandraNode n, String name) {
        try {
            return n.counter(name);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long gauge(CassandraNode n, String name) {
        try {
            return n.gauge(name);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static void checkRing(List<Window.NodeStat> stats, List<String> problems) {
        for (Window.NodeStat s : stats) {
            if (s.up() && s.error() != null) {
                problems.add("node " + s.id() + ": " + s.error());
            }
        }
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
