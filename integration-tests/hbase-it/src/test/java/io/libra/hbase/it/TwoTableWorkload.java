package io.libra.hbase.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Two tables with different load shapes, each first packed onto one RegionServer: {@link #CPU}
 * (with a read replica of every region) gets reads of tiny values, {@link #DISK} writes of large
 * values. Within a table every region gets the same traffic, so an even spread of a table's load
 * is an even spread of its regions.
 */
final class TwoTableWorkload extends BackgroundWorkload {
    static final TableName CPU = TableName.valueOf("cputable");
    static final TableName DISK = TableName.valueOf("disktable");
    static final int REGIONS = 8;
    private static final byte[] FAMILY = SkewedWorkload.FAMILY;
    private static final byte[] QUALIFIER = SkewedWorkload.QUALIFIER;
    private static final int READ_ROWS_PER_REGION = 32;
    private static final int LARGE_VALUE = 16 * 1024;

    private final Connection connection;
    private final List<byte[]> readRows = new ArrayList<>();
    private final List<byte[]> writeRows = new ArrayList<>();
    /** Every row written and the length its value must read back with, per table. */
    private final Map<TableName, Map<String, Integer>> written = new HashMap<>();
    private final java.util.concurrent.atomic.AtomicLong rounds = new java.util.concurrent.atomic.AtomicLong();

    TwoTableWorkload(Connection connection) {
        super("two-table-workload");
        this.connection = connection;
    }

    private static byte[][] splitKeys() {
        byte[][] keys = new byte[REGIONS - 1][];
        for (int i = 1; i < REGIONS; i++) {
            keys[i - 1] = new byte[] {(byte) (i * 256 / REGIONS)};
        }
        return keys;
    }

    void createTables(Admin admin) throws IOException {
        admin.createTable(TableDescriptorBuilder.newBuilder(CPU).setRegionReplication(2)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splitKeys());
        admin.createTable(TableDescriptorBuilder.newBuilder(DISK)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splitKeys());
    }

    /**
     * Packs the CPU table's primaries onto {@code cpu} (their replicas onto the two spare
     * servers, never beside their primary) and the disk table onto {@code disk}.
     */
    void pack(Admin admin, ServerName cpu, ServerName disk, List<ServerName> spare) throws IOException {
        int i = 0;
        for (RegionInfo ri : admin.getRegions(CPU)) {
            if (!RegionReplicaUtil.isDefaultReplica(ri)) {
                admin.move(ri.getEncodedNameAsBytes(), spare.get(i++ % spare.size()));
            }
        }
        for (RegionInfo ri : admin.getRegions(CPU)) {
            if (RegionReplicaUtil.isDefaultReplica(ri)) {
                admin.move(ri.getEncodedNameAsBytes(), cpu);
            }
        }
        for (RegionInfo ri : admin.getRegions(DISK)) {
            admin.move(ri.getEncodedNameAsBytes(), disk);
        }
    }

    /** Writes every row once. */
    void load() throws IOException {
        for (int r = 0; r < REGIONS; r++) {
            int prefix = r * 256 / REGIONS;
            for (int i = 0; i < READ_ROWS_PER_REGION; i++) {
                readRows.add(row(prefix, i, READ_ROWS_PER_REGION, "read"));
            }
            writeRows.add(row(prefix, 0, 1, "write"));
        }
        put(CPU, readRows, 16, 0);
        put(DISK, writeRows, LARGE_VALUE, 0);
        readRows.forEach(r -> written.computeIfAbsent(CPU, t -> new HashMap<>()).put(Bytes.toStringBinary(r), 16));
        writeRows.forEach(r -> written.computeIfAbsent(DISK, t -> new HashMap<>()).put(Bytes.toStringBinary(r),
                LARGE_VALUE));
    }

    private static byte[] row(int prefix, int i, int n, String kind) {
        return Bytes.add(new byte[] {(byte) prefix, (byte) (i * 256 / n)}, Bytes.toBytes(kind + "-" + i));
    }

    private void put(TableName name, List<byte[]> rows, int length, long round) throws IOException {
        List<Put> puts = new ArrayList<>();
        for (byte[] row : rows) {
            byte[] v = new byte[length];
            java.util.Arrays.fill(v, (byte) round);
            puts.add(new Put(row).addColumn(FAMILY, QUALIFIER, v));
        }
        try (Table table = connection.getTable(name)) {
            table.put(puts);
        }
    }

    @Override
    protected void drive() {
        long round = 0;
        try (Table cpu = connection.getTable(CPU)) {
            while (running()) {
                round++;
                try {
                    List<Get> gets = new ArrayList<>();
                    readRows.forEach(r -> gets.add(new Get(r)));
                    cpu.get(gets);
                    put(DISK, writeRows, LARGE_VALUE, round);
                    rounds.incrementAndGet();
                } catch (IOException | RuntimeException e) {
                    // a region moving under the client: retried next round
                }
            }
        } catch (IOException e) {
            giveUp();
        }
    }

    /** Rounds of both tables' traffic completed so far. */
    long rounds() {
        return rounds.get();
    }

    /** Rows of either table whose value is missing or of the wrong length. */
    List<String> unreadable() throws IOException {
        List<String> bad = new ArrayList<>();
        for (Map.Entry<TableName, Map<String, Integer>> t : written.entrySet()) {
            bad.addAll(SkewedWorkload.unreadable(connection, t.getKey(), t.getValue()));
        }
        return bad;
    }
}
