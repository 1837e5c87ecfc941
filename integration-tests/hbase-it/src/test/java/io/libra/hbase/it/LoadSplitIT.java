package io.libra.hbase.it;

import io.libra.hbase.balancer.LibraLoadBalancer;
import io.libra.it.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.BalanceRequest;
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
                return HotspotWorkload.primaries(cluster.admin()).size() > 1;
            });
            System.out.printf("LoadSplitIT: the hot region split into %s; decisions %s%n",
                    HotspotWorkload.primaries(cluster.admin()).stream().map(ri -> Bytes.toStringBinary(ri.getStartKey()))
                            .toList(),
                    MiniCluster.decisionLines(cluster.admin()).stream().filter(l -> l.contains("split")).toList());
            hot.assertSplitWhereItsLoadDivides(cluster.admin());
        }
    }
}
