package io.libra.cassandra.collect;

import java.time.Instant;
import java.util.List;

/**
 * What one measurement window saw: per node OS-level load, per table and node the request
 * counts, and the sampled hot partitions mapped to tokens. {@code problems} lists why the
 * window must not be planned on (a node down, too few samples, ...); empty means plannable.
 * {@code keyspaces} is each measured keyspace's replication as the nodes report it.
 */
public record Window(Instant start, Instant end, double seconds, List<NodeStat> nodes, List<TableStat> tables,
                     List<KeySample> samples, long sampledOps, long requestOps, List<String> problems,
                     List<KeyspaceReplication> keyspaces) {
    public Window {
        keyspaces = List.copyOf(keyspaces);
        nodes = List.copyOf(nodes);
        tables = List.copyOf(tables);
        samples = List.copyOf(samples);
        problems = List.copyOf(problems);
    }

    public boolean plannable() {
        return problems.isEmpty();
    }

    /**
     * One node over the window.
     *
     * @param diskSource {@code proc} (read_bytes + write_bytes of /proc/&lt;pid&gt;/io) or
     *                   {@code cassandra-counters} (bytes flushed, compacted and streamed, plus a
     *                   commit-log estimate: memtable live data + bytes flushed)
     * @param tokens     the node's tokens (several on a vnode ring), empty when it is down
     * @param datacenter the node's data centre by its snitch (EndpointSnitchInfo), null when down
     * @param rack       its rack, likewise
     */
    public record NodeStat(String id, String host, boolean up, String error, int cpuCores, double cpuUsage,
                           double diskBytesPerSec, String diskSource, List<Long> tokens, String mode, long pid,
                           String datacenter, String rack) {
        public NodeStat {
            tokens = tokens == null ? List.of() : List.copyOf(tokens);
        }

        /** The node's one token; null on a vnode ring, or when the node is down. */
        public Long token() {
            return tokens.size() == 1 ? tokens.get(0) : null;
        }
    }

    /** Requests per second one node served for one table, and the bytes it holds. */
    public record TableStat(String keyspace, String table, int replicationFactor, String node, double readOps,
                            double writeOps, double liveBytes) {
    }

    /**
     * A sampled partition: its token, how often the node surely saw it read and written, and the
     * bytes it surely saw written to it (each sampler's count minus its error bound; the
     * {@code WRITE_SIZE} sampler sums each update's data size). 0 where that sampler did not list it.
     */
    public record KeySample(String keyspace, String table, String node, long token, long reads, long writes,
                            long writeBytes) {
        /** A partition the write-size sampler did not list. */
        public KeySample(String keyspace, String table, String node, long token, long reads, long writes) {
            this(keyspace, table, node, token, reads, writes, 0);
        }
    }
}
