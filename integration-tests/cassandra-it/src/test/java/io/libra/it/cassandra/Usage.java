package io.libra.it.cassandra;

import io.libra.it.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Per-node CPU seconds (the node's own ProcessCpuTime over JMX) and disk bytes (the kernel's
 * /proc/&lt;pid&gt;/io read_bytes + write_bytes) used while the workload completed a fixed number
 * of operations.
 */
record Usage(double[] cpuSeconds, double[] diskBytes) {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Usage.class);
    /** How many times a window is measured at most while a compaction keeps running inside it. */
    private static final int QUIET_ATTEMPTS = 3;

    /**
     * Measures once no node has a compaction running or pending, and again (at most
     * {@link #QUIET_ATTEMPTS} times) when one ran inside the window: a few MB of compaction (of
     * SSTables just streamed in, or rewritten by cleanup) would otherwise outweigh the window's own
     * disk work. Waits at most a minute for quiet: the workload keeps flushing, so a new compaction
     * may always start.
     */
    static Usage measureQuiet(Ring ring, Workload load, int ops) throws IOException {
        Usage u = null;
        for (int attempt = 1; attempt <= QUIET_ATTEMPTS; attempt++) {
            awaitNoCompaction(ring);
            long compactedBefore = compacted(ring);
            u = measure(ring, load, ops);
            long during = compacted(ring) - compactedBefore;
            if (during == 0) {
                return u;
            }
            // a compaction that started inside the window (SSTables just streamed in, say) is not the workload's disk work
            LOG.info("measurement {} of {}: {} bytes compacted during it, measuring again", attempt, QUIET_ATTEMPTS, during);
        }
        LOG.warn("every one of {} measurements saw a compaction: keeping the last", QUIET_ATTEMPTS);
        return u;
    }

    private static void awaitNoCompaction(Ring ring) {
        try {
            Poll.until(Duration.ofSeconds(60), "no compaction running or pending", () -> {
                try {
                    return compacting(ring) == 0;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (AssertionError e) {
            LOG.warn("measuring while compactions run: {}", e.getMessage());
        }
    }

    /** Bytes compacted so far, over every node. */
    private static long compacted(Ring ring) throws IOException {
        long n = 0;
        for (int i = 0; i < ring.nodes.size(); i++) {
            n += ring.jmx(i).counter("type=Compaction,name=BytesCompacted");
        }
        return n;
    }

    /** A node joining the ring, and what it returns: the node. */
    interface Join {
        NodeProcess run() throws IOException;
    }

    /** The ring's usage before and after a node joined, measured quietly over the same number of operations. */
    record AroundJoin(Usage before, Usage after, NodeProcess joined) {
        /** Logs the join against the add-node advice and asserts the disk Max/Mean after it is within {@code tolerance} of the prediction. */
        void asPredictedBy(com.fasterxml.jackson.databind.JsonNode advice, double tolerance) {
            double predicted = advice.path("predicted").path("diskMaxOverMean").asDouble();
            LOG.info("{} joined: disk Max/Mean {} -> {} (predicted {}, ownership split {}); before {}; after {}", joined.id(),
                    before.diskMaxOverMean(), after.diskMaxOverMean(), predicted,
                    advice.path("ownershipSplit").path("predicted").path("diskMaxOverMean").asDouble(), before, after);
            org.assertj.core.api.Assertions.assertThat(after.diskMaxOverMean())
                    .as("measured disk Max/Mean after the join against the advice's")
                    .isCloseTo(predicted, org.assertj.core.data.Offset.offset(tolerance));
        }
    }

    /**
     * Measures, joins, lets the joined node settle (as many operations as a measurement: with half,
     * a joined node still did up to twice the others' disk bytes in some runs), measures again.
     */
    static AroundJoin aroundJoin(Ring ring, Workload load, int ops, Join join) throws IOException {
        Usage before = measureQuiet(ring, load, ops);
        NodeProcess n = join.run();
        measure(ring, load, ops);
        return new AroundJoin(before, measureQuiet(ring, load, ops), n);
    }

    private static long compacting(Ring ring) throws IOException {
        long n = 0;
        for (int i = 0; i < ring.nodes.size(); i++) {
            n += ring.jmx(i).gauge("type=Compaction,name=PendingTasks");
            Object active = ring.jmx(i).jmx().get("org.apache.cassandra.db:type=CompactionManager", "Compactions");
            n += active instanceof java.util.Collection<?> c ? c.size() : 0;
        }
        return n;
    }

    static Usage measure(Ring ring, Workload load, int ops) throws IOException {
        double[][] start = read(ring);
        long target = load.completed.get() + ops;
        Poll.until(Duration.ofSeconds(180), ops + " workload operations", () -> load.completed.get() >= target);
        double[][] end = read(ring);
        double[] cpu = new double[start[0].length];
        double[] disk = new double[start[0].length];
        for (int i = 0; i < cpu.length; i++) {
            cpu[i] = (end[0][i] - start[0][i]) / 1e9;
            disk[i] = end[1][i] - start[1][i];
        }
        return new Usage(cpu, disk);
    }

    private static double[][] read(Ring ring) throws IOException {
        int n = ring.nodes.size();
        double[][] v = new double[2][n];
        for (int i = 0; i < n; i++) {
            v[0][i] = ring.jmx(i).processCpuTimeNanos();
            v[1][i] = procIo(ring.nodes.get(i).pid());
        }
        return v;
    }

    private static double procIo(long pid) throws IOException {
        double total = 0;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
            if (line.startsWith("read_bytes:") || line.startsWith("write_bytes:")) {
                total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }

    static double maxOverMean(double[] v) {
        double mean = Arrays.stream(v).average().orElse(0);
        return mean > 0 ? Arrays.stream(v).max().orElse(0) / mean : 1;
    }

    double cpuMaxOverMean() {
        return maxOverMean(cpuSeconds);
    }

    double diskMaxOverMean() {
        return maxOverMean(diskBytes);
    }

    @Override
    public String toString() {
        return "cpu s " + Arrays.toString(cpuSeconds) + ", disk bytes " + Arrays.toString(diskBytes);
    }
}
