package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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

/**
 * One region too hot to move anywhere whole: a table of a single region whose rows ("hot-0000" …)
 * all lie at the low end of its key space, read in batches as fast as the client goes. Split at
 * its key-space midpoint, the upper daughter would be empty; split where its load divides, both
 * daughters hold rows. The table keeps a second replica of each region (region replication 2),
 * so a split must leave every daughter's replica on another server than its primary.
 */
final class HotspotWorkload extends BackgroundWorkload {
    static final TableName TABLE = TableName.valueOf("hotspot");
    static final String PREFIX = "hot-";
    private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
    static final int REPLICAS = 2;
    private static final int ROWS = 400;
    private final Connection connection;
    final List<byte[]> rows = new ArrayList<>();

    HotspotWorkload(Connection connection) {
        super("hotspot-workload");
        this.connection = connection;
        for (int i = 0; i < ROWS; i++) {
            rows.add(String.format(java.util.Locale.ROOT, "%s%04d", PREFIX, i).getBytes(StandardCharsets.UTF_8));
        }
    }

    void createAndLoad(Admin admin) throws IOException {
        admin.createTable(TableDescriptorBuilder.newBuilder(TABLE).setRegionReplication(REPLICAS)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build());
        try (Table t = connection.getTable(TABLE)) {
            List<Put> puts = new ArrayList<>();
            for (byte[] row : rows) {
                puts.add(new Put(row).addColumn(FAMILY, FAMILY, new byte[16]));
            }
            t.put(puts);
        }
    }

    @Override
    protected void drive() {
        SplittableRandom rnd = new SplittableRandom(7);
        try (Table t = connection.getTable(TABLE)) {
            while (running()) {
                List<Get> gets = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    gets.add(new Get(rows.get(rnd.nextInt(rows.size()))));
                }
                t.get(gets);
            }
        } catch (IOException e) {
            giveUp();
        }
    }

    /** The table's primary regions in key order. */
    static List<RegionInfo> primaries(Admin admin) throws IOException {
        List<RegionInfo> out = new ArrayList<>(admin.getRegions(TABLE).stream().filter(RegionReplicaUtil::isDefaultReplica)
                .toList());
        out.sort(RegionInfo.COMPARATOR);
        return out;
    }

    /**
     * The hot region was split where its load divides: every split key falls among the rows, every
     * daughter holds some, and each primary's replica is online on another server.
     */
    void assertSplitWhereItsLoadDivides(Admin admin) throws IOException {
        // the split procedure writes the daughters to meta before it opens them and their replicas
        io.libra.it.Poll.until(java.time.Duration.ofMinutes(1), "the daughters and their replicas online",
                () -> MiniCluster.copiesOnline(admin, TABLE).values().stream().mapToInt(List::size).sum() == REPLICAS * primaries(admin).size());
        List<RegionInfo> regions = primaries(admin);
        assertThat(regions).as("the hot region split").hasSizeGreaterThan(1);
        for (RegionInfo ri : regions.subList(1, regions.size())) {
            assertThat(org.apache.hadoop.hbase.util.Bytes.toString(ri.getStartKey())).as("split key of %s", ri)
                    .startsWith(PREFIX);
        }
        for (RegionInfo ri : regions) {
            assertThat(rows.stream().filter(ri::containsRow).count()).as("rows in %s", ri).isPositive();
        }
        assertThat(MiniCluster.copiesOnline(admin, TABLE).values()).as("a primary and its replica on distinct servers")
                .allSatisfy(s -> assertThat(new java.util.HashSet<>(s)).hasSize(REPLICAS));
    }
}
