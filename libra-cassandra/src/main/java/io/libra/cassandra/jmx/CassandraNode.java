package io.libra.cassandra.jmx;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/** The Cassandra MBeans Libra uses, typed. Every call is one JMX round trip to this node. */
public final class CassandraNode implements RingOps {
    static final String STORAGE = "org.apache.cassandra.db:type=StorageService";
    static final String OS = "java.lang:type=OperatingSystem";
    static final String RUNTIME = "java.lang:type=Runtime";
    static final String STREAMS = "org.apache.cassandra.net:type=StreamManager";
    static final String SNITCH = "org.apache.cassandra.db:type=EndpointSnitchInfo";
    /** Cassandra's replicated system keyspaces (SchemaConstants.REPLICATED_SYSTEM_KEYSPACE_NAMES, 5.0). */
    static final java.util.Set<String> REPLICATED_SYSTEM_KEYSPACES = java.util.Set.of("system_auth",
            "system_distributed", "system_traces", "system_cluster_metadata");
    private static final String[] STRING = {String.class.getName()};
    private final JmxNode jmx;

    public CassandraNode(JmxNode jmx) {
        this.jmx = jmx;
    }

    public JmxNode jmx() {
        return jmx;
    }

    @Override
    public String host() {
        return jmx.instance().host;
    }

    @Override
    public String id() {
        return jmx.id();
    }

    public long processCpuTimeNanos() throws IOException {
        return ((Number) jmx.get(OS, "ProcessCpuTime")).longValue();
    }

    public int availableProcessors() throws IOException {
        return ((Number) jmx.get(OS, "AvailableProcessors")).intValue();
    }

    /** The node's pid from the RuntimeMXBean name ("pid@host"). */
    public long pid() throws IOException {
        String name = (String) jmx.get(RUNTIME, "Name");
        return Long.parseLong(name.substring(0, name.indexOf('@')));
    }

    /** This node's data centre, as its snitch places it. */
    @Override
    public String datacenter() throws IOException {
        return (String) jmx.get(SNITCH, "Datacenter");
    }

    /** This node's rack, as its snitch places it. */
    @Override
    public String rack() throws IOException {
        return (String) jmx.get(SNITCH, "Rack");
    }

    @Override
    public String operationMode() throws IOException {
        return (String) jmx.get(STORAGE, "OperationMode");
    }

    @SuppressWarnings("unchecked")
    @Override
    public List<String> nodes(String attribute) throws IOException {
        return (List<String>) jmx.get(STORAGE, attribute);
    }

    /** This node's own tokens (signed decimal strings). */
    @SuppressWarnings("unchecked")
    @Override
    public List<String> tokens() throws IOException {
        return (List<String>) jmx.get(STORAGE, "Tokens");
    }

    @SuppressWarnings("unchecked")
    @Override
    public Map<String, String> tokenToEndpoint() throws IOException {
        return (Map<String, String>) jmx.get(STORAGE, "TokenToEndpointMap");
    }

    /**
     * User keyspaces: Cassandra's non-system list (which includes the replicated system keyspaces)
     * minus those by name, not by a "system" prefix, so a user keyspace called system_x counts.
     */
    @SuppressWarnings("unchecked")
    @Override
    public List<String> keyspaces() throws IOException {
        return ((List<String>) jmx.get(STORAGE, "NonSystemKeyspaces")).stream()
                .filter(k -> !REPLICATED_SYSTEM_KEYSPACES.contains(k)).sorted().toList();
    }

    @SuppressWarnings("unchecked")
    @Override
    public List<String> replicatedKeyspaces() throws IOException {
        return ((List<String>) jmx.get(STORAGE, "NonLocalStrategyKeyspaces")).stream().sorted().toList();
    }

    /** Bytes a table holds: live SSTables plus the memtable not yet flushed. */
    public long tableBytes(String keyspace, String table) throws IOException {
        String prefix = "org.apache.cassandra.metrics:type=Table,keyspace=" + keyspace + ",scope=" + table + ",name=";
        return ((Number) jmx.get(prefix + "LiveDiskSpaceUsed", "Count")).longValue()
                + ((Number) jmx.get(prefix + "MemtableLiveDataSize", "Value")).longValue();
    }

    /** The keyspace's replication: strategy and options, e.g. "SimpleStrategy {replication_factor=2}". */
    @Override
    public String replicationInfo(String keyspace) throws IOException {
        return (String) jmx.invoke(STORAGE, "getKeyspaceReplicationInfo", new Object[] {keyspace}, STRING);
    }

    /** The keyspace's ranges ([start, end], signed decimal tokens) and the replicas holding each. */
    @SuppressWarnings("unchecked")
    public Map<List<String>, List<String>> rangeToEndpoints(String keyspace) throws IOException {
        return (Map<List<String>, List<String>>) jmx.invoke(STORAGE, "getRangeToEndpointMap", new Object[] {keyspace},
                STRING);
    }

    public List<String> tables(String keyspace) throws IOException {
        List<String> out = new ArrayList<>();
        for (ObjectName n : jmx.query("org.apache.cassandra.db:type=Tables,keyspace=" + keyspace + ",table=*")) {
            out.add(n.getKeyProperty("table"));
        }
        out.sort(null);
        return out;
    }

    @Override
    public int currentStreams() throws IOException {
        return ((Collection<?>) jmx.get(STREAMS, "CurrentStreams")).size();
    }

    public long tableCount(String keyspace, String table, String metric) throws IOException {
        return ((Number) jmx.get("org.apache.cassandra.metrics:type=Table,keyspace=" + keyspace + ",scope=" + table
                + ",name=" + metric, "Count")).longValue();
    }

    /**
     * A node-wide counter, e.g. {@code type=Table,name=BytesFlushed}. Some all-tables aggregates
     * are registered as gauges (attribute Value) where the per-table metric is a counter (Count).
     */
    public long counter(String metricName) throws IOException {
        String bean = "org.apache.cassandra.metrics:" + metricName;
        try {
            return ((Number) jmx.get(bean, "Count")).longValue();
        } catch (IOException e) {
            if (e.getCause() instanceof javax.management.AttributeNotFoundException) {
                return ((Number) jmx.get(bean, "Value")).longValue();
            }
            throw e;
        }
    }

    public long gauge(String metricName) throws IOException {
        Object v = jmx.get("org.apache.cassandra.metrics:" + metricName, "Value");
        return ((Number) v).longValue();
    }

    public void beginSampling(String keyspace, String table, String sampler, int capacity, int durationMillis)
            throws IOException {
        jmx.invoke(tableBean(keyspace, table), "beginLocalSampling", new Object[] {sampler, capacity, durationMillis},
                new String[] {String.class.getName(), "int", "int"});
    }

    /** The sampled partitions: key (the table's string form) and count. */
    @SuppressWarnings("unchecked")
    public List<Sample> finishSampling(String keyspace, String table, String sampler, int count) throws IOException {
        List<CompositeData> rows = (List<CompositeData>) jmx.invoke(tableBean(keyspace, table), "finishLocalSampling",
                new Object[] {sampler, count}, new String[] {String.class.getName(), "int"});
        List<Sample> out = new ArrayList<>(rows.size());
        for (CompositeData d : rows) {
            long error = d.containsKey("error") ? ((Number) d.get("error")).longValue() : 0;
            out.add(new Sample(String.valueOf(d.get("value")), ((Number) d.get("count")).longValue(), error));
        }
        return out;
    }

    /** The token the node computes for a key (Murmur3, signed decimal). */
    public String token(String keyspace, String table, String key) throws IOException {
        return (String) jmx.invoke(STORAGE, "getToken", new Object[] {keyspace, table, key},
                new String[] {String.class.getName(), String.class.getName(), String.class.getName()});
    }

    /** StorageService.move blocks until the node's streaming is done: {@code limit} bounds the whole move. */
    @Override
    public void move(String newToken, java.time.Duration limit) throws IOException {
        jmx.invoke(STORAGE, "move", new Object[] {newToken}, STRING, limit);
    }

    /** Cleanup blocks until it has rewritten the keyspace's SSTables: {@code limit} bounds it. */
    @Override
    public int cleanup(String keyspace, java.time.Duration limit) throws IOException {
        Object status = jmx.invoke(STORAGE, "forceKeyspaceCleanup", new Object[] {1, keyspace, new String[0]},
                new String[] {"int", String.class.getName(), String[].class.getName()}, limit);
        return status instanceof Number n ? n.intValue() : 0;
    }

    @Override
    public double[] streamThroughput() throws IOException {
        return new double[] {((Number) jmx.get(STORAGE, "StreamThroughputMebibytesPerSecAsDouble")).doubleValue(),
            ((Number) jmx.get(STORAGE, "EntireSSTableStreamThroughputMebibytesPerSecAsDouble")).doubleValue()};
    }

    @Override
    public void setStreamThroughput(int mibPerSec, int entireSstableMibPerSec) throws IOException {
        // setX(int) methods are (write-only, for the entire-SSTable cap) MBean attributes, not operations
        jmx.set(STORAGE, "StreamThroughputMebibytesPerSec", mibPerSec);
        jmx.set(STORAGE, "EntireSSTableStreamThroughputMebibytesPerSec", entireSstableMibPerSec);
    }

    @SuppressWarnings("unchecked")
    @Override
    public Map<String, List<String>> schemaVersions() throws IOException {
        return (Map<String, List<String>>) jmx.get("org.apache.cassandra.db:type=StorageProxy", "SchemaVersions");
    }

    @Override
    public int pendingHints() throws IOException {
        List<?> pending = (List<?>) jmx.get("org.apache.cassandra.hints:type=HintsService", "PendingHints");
        return pending.size();
    }

    @Override
    public int repairSessions() throws IOException {
        return ((Number) jmx.invoke("org.apache.cassandra.db:type=RepairService", "parentRepairSessionsCount",
                new Object[0], new String[0])).intValue();
    }

    /**
     * Cassandra reports no free space over JMX; when the daemon shares the node's host it reads
     * the file stores of the node's data directories itself.
     */
    @Override
    public long freeDiskBytes() throws IOException {
        if (!jmx.colocated()) {
            return -1;
        }
        long free = Long.MAX_VALUE;
        for (String dir : (String[]) jmx.get(STORAGE, "AllDataFileLocations")) {
            free = Math.min(free, java.nio.file.Files.getFileStore(java.nio.file.Path.of(dir)).getUsableSpace());
        }
        return free == Long.MAX_VALUE ? -1 : free;
    }

    private static String tableBean(String keyspace, String table) {
        return "org.apache.cassandra.db:type=Tables,keyspace=" + keyspace + ",table=" + table;
    }

    /**
     * One sampled partition. The sampler is a space-saving top-k: {@code count} may include up
     * to {@code error} operations of keys it evicted; {@code count - error} is guaranteed.
     */
    public record Sample(String key, long count, long error) {
        public long guaranteed() {
            return Math.max(0, count - error);
        }
    }
}
