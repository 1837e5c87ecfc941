package io.libra.hbase.it;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The skewed workload, through the real hbase-client: a table pre-split into 32 regions by the
 * first row-key byte; the regions first placed on one RegionServer get hot reads of tiny values
 * (CPU), those on another get writes of large values (disk), the rest a light trickle.
 */
final class SkewedWorkload extends BackgroundWorkload {
    static final TableName TABLE = TableName.valueOf("usertable");
    static final byte[] FAMILY = Bytes.toBytes("f");
    static final byte[] QUALIFIER = Bytes.toBytes("q");
    static final int REGIONS = 32;
    static final int HOT_ROWS_PER_REGION = 64;
    static final int LARGE_ROWS_PER_REGION = 8;
    static final int LARGE_VALUE = 16 * 1024;
    static final int COLD_ROWS_PER_REGION = 16;

    private final Connection connection;
    /** Every row written and the length its value must read back with. */
    final Map<String, Integer> written = new HashMap<>();
    final List<byte[]> hotRows = new ArrayList<>();
    /** Per disk-heavy region, its rows: every round writes one row of each, so each region's rate is steady. */
    final List<List<byte[]>> largeRows = new ArrayList<>();
    final List<byte[]> coldRows = new ArrayList<>();
    ServerName cpuServer;
    ServerName diskServer;
    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong longestRound = new AtomicLong();

    SkewedWorkload(Connection connection) {
        super("skewed-workload");
        this.connection = connection;
    }

    static byte[][] splitKeys() {
        byte[][] keys = new byte[REGIONS - 1][];
        for (int i = 1; i < REGIONS; i++) {
            keys[i - 1] = new byte[] {(byte) (i * 256 / REGIONS)};
        }
        return keys;
    }

    void createTable(Admin admin) throws IOException {
        admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splitKeys());
    }

    /** Picks the CPU and disk servers from where the regions landed, then writes every row once. */
    void load() throws IOException {
        Map<ServerName, List<HRegionLocation>> byServer = new HashMap<>();
        try (RegionLocator locator = connection.getRegionLocator(TABLE)) {
            for (HRegionLocation l : locator.getAllRegionLocations()) {
                byServer.computeIfAbsent(l.getServerName(), k -> new ArrayList<>()).add(l);
            }
        }
        List<ServerName> servers = new ArrayList<>(byServer.keySet());
        servers.sort((a, b) -> Integer.compare(byServer.get(b).size(), byServer.get(a).size()));
        cpuServer = servers.get(0);
        diskServer = servers.get(1);
        try (Table table = connection.getTable(TABLE)) {
            for (Map.Entry<ServerName, List<HRegionLocation>> e : byServer.entrySet()) {
                for (HRegionLocation l : e.getValue()) {
                    byte[] start = l.getRegion().getStartKey();
                    int prefix = start.length == 0 ? 0 : start[0] & 0xff;
                    if (e.getKey().equals(cpuServer)) {
                        rows(table, prefix, "hot", HOT_ROWS_PER_REGION, 16, hotRows);
                    } else if (e.getKey().equals(diskServer)) {
                        List<byte[]> regionRows = new ArrayList<>();
                        rows(table, prefix, "large", LARGE_ROWS_PER_REGION, LARGE_VALUE, regionRows);
                        largeRows.add(regionRows);
                    } else {
                        rows(table, prefix, "cold", COLD_ROWS_PER_REGION, 128, coldRows);
                    }
                }
            }
        }
    }

    private void rows(Table table, int prefix, String kind, int n, int valueLength, List<byte[]> into)
            throws IOException {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // spread the rows over the region's key range so any split key divides them
            byte[] row = Bytes.add(new byte[] {(byte) prefix, (byte) (i * 256 / n)}, Bytes.toBytes(kind + "-" + i));
            puts.add(new Put(row).addColumn(FAMILY, QUALIFIER, value(row, valueLength, 0)));
            written.put(Bytes.toStringBinary(row), valueLength);
            into.add(row);
        }
        table.put(puts);
    }

    static byte[] value(byte[] row, int length, long round) {
        byte[] v = new byte[length];
        Arrays.fill(v, (byte) (row[row.length - 1] + round));
        return v;
    }

    @Override
    protected void drive() {
        long round = 0;
        try (Table table = connection.getTable(TABLE)) {
            while (running()) {
                round++;
                long start = System.nanoTime();
                try {
                    List<Get> gets = new ArrayList<>();
                    for (byte[] row : hotRows) {
                        gets.add(new Get(row));
                    }
                    table.get(gets);
                    List<Put> puts = new ArrayList<>();
                    for (List<byte[]> regionRows : largeRows) {
                        byte[] large = regionRows.get((int) (round % regionRows.size()));
                        puts.add(new Put(large).addColumn(FAMILY, QUALIFIER, value(large, LARGE_VALUE, round)));
                    }
                    table.put(puts);
                    if (round % 10 == 0) {
                        table.get(new Get(coldRows.get((int) (round / 10 % coldRows.size()))));
                    }
                    ops.addAndGet(gets.size() + puts.size());
                } catch (IOException e) {
                    failures.incrementAndGet(); // a region moving under the client: retried next round
                }
                longestRound.accumulateAndGet(System.nanoTime() - start, Math::max);
            }
        } catch (IOException e) {
            failures.incrementAndGet();
        }
    }

    /** The longest round of client calls so far: a stalled call shows here even when it ended before the workload stopped. */
    Duration longestRound() {
        return Duration.ofNanos(longestRound.get());
    }

    long ops() {
        return ops.get();
    }

    /** Rows whose value is missing or of the wrong length. */
    private static final int READ_BACK_BATCH = 500;

    List<String> unreadable() throws IOException {
        return unreadable(connection, TABLE, written);
    }

    /** The rows of {@code written} (row → value length) whose value in {@code name} is missing or of another length. */
    static List<String> unreadable(Connection connection, TableName name, Map<String, Integer> written)
            throws IOException {
        List<String> bad = new ArrayList<>();
        List<Map.Entry<String, Integer>> rows = new ArrayList<>(written.entrySet());
        try (Table table = connection.getTable(name)) {
            // batched: one round trip per region server and batch, not per row
            for (int from = 0; from < rows.size(); from += READ_BACK_BATCH) {
                List<Map.Entry<String, Integer>> batch = rows.subList(from, Math.min(rows.size(), from + READ_BACK_BATCH));
                List<Get> gets = new ArrayList<>(batch.size());
                batch.forEach(e -> gets.add(new Get(Bytes.toBytesBinary(e.getKey()))));
                Result[] results = table.get(gets);
                for (int i = 0; i < batch.size(); i++) {
                    byte[] v = results[i].getValue(FAMILY, QUALIFIER);
                    if (v == null || v.length != batch.get(i).getValue()) {
                        bad.add(name + "/" + batch.get(i).getKey());
                    }
                }
            }
        }
        return bad;
    }
}
