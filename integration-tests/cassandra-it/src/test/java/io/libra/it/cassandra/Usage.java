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
record Usage(double[] cpuSeconds, double[] diskBytes, double[] bytesPerLocalWrite, double[] readShare, String breakdown) {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Usage.class);
    /**
     * How many times a window is measured at most while something besides the workload keeps
     * showing inside it: after a join, a node's reads from disk fell from 28% to 8% to none of its
     * writes over three measurements in one run, so three left no room to spare.
     */
    private static final int QUIET_ATTEMPTS = 5;
    /**
     * How far a node's bytes written per local write may stand above the other nodes' median
     * before the window counts as measuring more than the workload. The workload's disk work is
     * its commit log (one value size; reads come from the page cache), about 590 B per local write
     * on every node, within 2%.
     */
    private static final double WRITE_BYTES_OUT_OF_LINE = 1.25;
    /**
     * The most a node may read from disk, as a share of what it wrote, before the window counts as
     * measuring more than the workload: the workload's reads come from the page cache (0 B read on
     * every node in most windows), but a node has read 90 to 230 KB in a window after a join
     * (classes, system tables), enough to move the disk Max/Mean of four nodes by 0.1.
     */
    private static final double READ_SHARE_OUT_OF_LINE = 0.05;

    /**
     * Measures once no node has a compaction running or pending, and again (at most
     * {@link #QUIET_ATTEMPTS} times) when one ran inside the window: a few MB of compaction (of
     * SSTables just streamed in, or rewritten by cleanup) would otherwise outweigh the window's own
     * disk work. Waits at most a minute for quiet: the workload keeps flushing, so a new compaction
     * may always start.
     */
    static Usage measureQuiet(Ring ring, Workload load, int ops) throws IOException {
        Usage least = null;
        double leastDisturbance = Double.POSITIVE_INFINITY;
        for (int attempt = 1; attempt <= QUIET_ATTEMPTS; attempt++) {
            awaitNoCompaction(ring);
            long compactedBefore = compacted(ring);
            Usage u = measure(ring, load, ops);
            long during = compacted(ring) - compactedBefore;
            String outOfLine = u.outOfLine(ring);
            if (during == 0 && outOfLine == null) {
                return u;
            }
            double disturbance = u.disturbance(during);
            if (disturbance < leastDisturbance) {
                least = u;
                leastDisturbance = disturbance;
            }
            // a compaction that started inside the window (SSTables just streamed in, say) is not the workload's disk work,
            // nor is what a node wrote beyond its share of the commit log (seen on freshly joined nodes: up to 1.8x the others),
            // nor what it read from disk
            LOG.info("measurement {} of {}: {}, measuring again ({})", attempt, QUIET_ATTEMPTS,
                    during > 0 ? during + " bytes compacted during it" : outOfLine, u);
        }
        LOG.warn("every one of {} measurements saw a compaction or a node's reads or writes out of line: keeping the least"
                + " disturbed ({})", QUIET_ATTEMPTS, least);
        return least;
    }

    /**
     * How far a window strays from the workload's own disk work: any compaction inside it outranks
     * the rest, then the largest share of its writes a node read from disk, then the largest ratio of
     * a node's bytes per local write to the others' median (the measures {@link #outOfLine} tests).
     * The last of five disturbed windows after a join had n2 read 46% of what it wrote, where the
     * second read 7%: keeping the last measured disk Max/Mean 1.32 against 1.10.
     */
    private double disturbance(long compactedDuring) {
        double read = Arrays.stream(readShare).max().orElse(0) / READ_SHARE_OUT_OF_LINE;
        double written = 0;
        double median = median(bytesPerLocalWrite);
        for (double b : bytesPerLocalWrite) {
            written = Math.max(written, median > 0 ? b / median / WRITE_BYTES_OUT_OF_LINE : 0);
        }
        return (compactedDuring > 0 ? 1e6 : 0) + Math.max(read, written);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
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
        LOG.info("{} joined ({} workload operations failed so far), settling: {}", n.id(), load.failed.get(), measure(ring, load, ops));
        Usage after = measureQuiet(ring, load, ops);
        LOG.info("{} workload operations failed so far", load.failed.get());
        return new AroundJoin(before, after, n);
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
        int n = start[0].length;
        double[] cpu = new double[n];
        double[] disk = new double[n];
        double[] perWrite = new double[n];
        double[] readShare = new double[n];
        StringBuilder parts = new StringBuilder();
        for (int i = 0; i < n; i++) {
            double[] d = new double[start.length];
            for (int k = 0; k < d.length; k++) {
                d[k] = end[k][i] - start[k][i];
            }
            cpu[i] = d[CPU_NS] / 1e9;
            disk[i] = d[READ] + d[WRITTEN];
            perWrite[i] = d[WRITTEN] / Math.max(1, d[COUNTER + LOCAL_WRITES]);
            readShare[i] = d[READ] / Math.max(1, d[WRITTEN]);
            parts.append(' ').append(ring.nodes.get(i).id()).append(String.format(java.util.Locale.ROOT, ": read %.0f written %.0f",
                    d[READ], d[WRITTEN]));
            for (int c = 0; c < COUNTERS.length; c++) {
                parts.append(", ").append(COUNTERS[c][0]).append(' ').append(Math.round(d[COUNTER + c]));
            }
            parts.append(';');
        }
        return new Usage(cpu, disk, perWrite, readShare, parts.toString());
    }

    /**
     * The node's own counters logged beside its disk bytes, to tell what they were: flushes,
     * compactions, local writes, and catch-up writes (hints, blocking read repair) that a freshly
     * joined node may receive.
     */
    private static final String[][] COUNTERS = {{"flushed", "type=Table,name=BytesFlushed"},
        {"compacted", "type=Compaction,name=BytesCompacted"}, {"local writes", "type=Table,name=WriteLatency"},
        {"hints stored", "type=Storage,name=TotalHints"}, {"hints delivered", "type=HintsService,name=HintsSucceeded"},
        {"blocking read repairs", "type=ReadRepair,name=RepairedBlocking"}};
    /** Rows of {@link #read}: CPU ns, the kernel's read and written bytes, then the {@link #COUNTERS}. */
    private static final int CPU_NS = 0;
    private static final int READ = 1;
    private static final int WRITTEN = 2;
    private static final int COUNTER = 3;
    /** The local writes' place among the {@link #COUNTERS}. */
    private static final int LOCAL_WRITES = 2;

    /** Per node: CPU ns, the kernel's read and write bytes, then {@link #COUNTERS}. */
    private static double[][] read(Ring ring) throws IOException {
        int n = ring.nodes.size();
        double[][] v = new double[COUNTER + COUNTERS.length][n];
        for (int i = 0; i < n; i++) {
            v[CPU_NS][i] = ring.jmx(i).processCpuTimeNanos();
            long[] io = procIo(ring.nodes.get(i).pid());
            v[READ][i] = io[0];
            v[WRITTEN][i] = io[1];
            for (int c = 0; c < COUNTERS.length; c++) {
                v[COUNTER + c][i] = counter(ring.jmx(i), COUNTERS[c][1]);
            }
        }
        return v;
    }

    /** The counter, or 0 while its MBean is not registered (Cassandra registers some, the hints service's, on first use). */
    private static long counter(io.libra.cassandra.jmx.CassandraNode node, String name) throws IOException {
        try {
            return node.counter(name);
        } catch (IOException e) {
            if (e.getCause() instanceof javax.management.InstanceNotFoundException) {
                return 0;
            }
            throw e;
        }
    }

    /** read_bytes and write_bytes of /proc/&lt;pid&gt;/io. */
    private static long[] procIo(long pid) throws IOException {
        long[] rw = new long[2];
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
            if (line.startsWith("read_bytes:")) {
                rw[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("write_bytes:")) {
                rw[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return rw;
    }

    static double maxOverMean(double[] v) {
        double mean = Arrays.stream(v).average().orElse(0);
        return mean > 0 ? Arrays.stream(v).max().orElse(0) / mean : 1;
    }

    /**
     * The nodes whose bytes written per local write stand above the other nodes' median by
     * {@link #WRITE_BYTES_OUT_OF_LINE}, or that read more than {@link #READ_SHARE_OUT_OF_LINE} of
     * what they wrote; null when there is none.
     */
    String outOfLine(Ring ring) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < readShare.length; i++) {
            if (readShare[i] > READ_SHARE_OUT_OF_LINE) {
                out.append(String.format(java.util.Locale.ROOT, "%s read %.0f%% of what it wrote from disk; ",
                        ring.nodes.get(i).id(), 100 * readShare[i]));
            }
        }
        for (int i = 0; i < bytesPerLocalWrite.length; i++) {
            int self = i;
            double median = median(java.util.stream.IntStream.range(0, bytesPerLocalWrite.length).filter(k -> k != self)
                    .mapToDouble(k -> bytesPerLocalWrite[k]).toArray());
            if (bytesPerLocalWrite[i] > WRITE_BYTES_OUT_OF_LINE * median) {
                out.append(String.format(java.util.Locale.ROOT, "%s wrote %.0f B per local write, the others' median %.0f B; ",
                        ring.nodes.get(i).id(), bytesPerLocalWrite[i], median));
            }
        }
        return out.isEmpty() ? null : out.substring(0, out.length() - 2);
    }

    double cpuMaxOverMean() {
        return maxOverMean(cpuSeconds);
    }

    double diskMaxOverMean() {
        return maxOverMean(diskBytes);
    }

    @Override
    public String toString() {
        return "cpu s " + Arrays.toString(cpuSeconds) + ", disk bytes " + Arrays.toString(diskBytes) + " (" + breakdown.trim() + ")";
    }
}
