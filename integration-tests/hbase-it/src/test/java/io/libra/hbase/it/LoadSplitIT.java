package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.hbase.balancer.LibraLoadBalancer;
import io.libra.it.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Libra at its defaults on a fresh MiniHBaseCluster whose only traffic is one region too hot to
 * move anywhere whole (all of a table's rows, read flat out, at the low end of its one region's
 * key space): Libra splits it where its sampled load divides as the plan needs (the load midpoint,
 * or the share a destination can take). Every split key falls among the rows and every daughter
 * holds some, where the key-space midpoint would have left the upper daughter empty. The region
 * has a replica: once the split settles, each daughter's primary and replica sit on distinct servers.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class LoadSplitIT {
    @Test
    void aRegionTooHotToMoveIsSplitWhereItsLoadDivides() throws Exception {
        try (Teardown started = new Teardown()) {
            MiniCluster cluster = started.add(MiniCluster.start(LibraLoadBalancer.class, Map.of()));
            HotspotWorkload hot = started.add(new HotspotWorkload(cluster.util.getConnection()));
            hot.createAndLoad(cluster.admin());
            cluster.awaitNoRegionsInTransition();
            hot.start();
            LoadMeter meter = new LoadMeter(cluster.admin(), MiniCluster.REGION_SERVERS);
            Poll.until(Duration.ofMinutes(3), "Libra to split the hot region", () -> {
                cluster.awaitNoRegionsInTransition();
                meter.freshReports(Instant.now());
                cluster.admin().balance(BalanceRequest.defaultInstance());
                cluster.awaitNoRegionsInTransition();
                return cluster.admin().getRegions(HotspotWorkload.TABLE).stream()
                        .filter(RegionReplicaUtil::isDefaultReplica).count() > 1;
            });
            List<RegionInfo> regions = new ArrayList<>(cluster.admin().getRegions(HotspotWorkload.TABLE).stream()
                    .filter(RegionReplicaUtil::isDefaultReplica).toList());
            regions.sort(RegionInfo.COMPARATOR);
            System.out.printf("LoadSplitIT: the hot region split into %s; decisions %s%n",
                    regions.stream().map(ri -> Bytes.toStringBinary(ri.getStartKey())).toList(),
                    MiniCluster.decisionLines(cluster.admin()).stream().filter(l -> l.contains("split")).toList());
            for (RegionInfo ri : regions.subList(1, regions.size())) {
                assertThat(Bytes.toString(ri.getStartKey())).as("split key of %s", ri).startsWith(HotspotWorkload.PREFIX);
            }
            for (RegionInfo ri : regions) {
                assertThat(hot.rows.stream().filter(ri::containsRow).count()).as("rows in %s", ri).isPositive();
            }
            assertReplicasApart(cluster, regions.size());
        }
    }

    /** Every primary of the table, daughters included, has its replica online on another server. */
    private static void assertReplicasApart(MiniCluster cluster, int primaries) throws Exception {
        Map<String, java.util.Set<ServerName>> serversOf = new java.util.HashMap<>();
        int copies = 0;
        for (ServerName sn : cluster.admin().getRegionServers()) {
            for (RegionInfo ri : cluster.admin().getRegions(sn)) {
                if (ri.getTable().equals(HotspotWorkload.TABLE)) {
                    copies++;
                    serversOf.computeIfAbsent(RegionReplicaUtil.getRegionInfoForDefaultReplica(ri).getEncodedName(),
                            k -> new java.util.HashSet<>()).add(sn);
                }
            }
        }
        assertThat(copies).as("every daughter and its replica online").isEqualTo(HotspotWorkload.REPLICAS * primaries);
        assertThat(serversOf.values()).as("a primary and its replica on distinct servers")
                .allSatisfy(s -> assertThat(s).hasSize(HotspotWorkload.REPLICAS));
    }
}
