package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.MoveAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.junit.jupiter.api.Test;

class RegionCountBandTest {
    /** Three loaded servers with 10 regions each, one cold, and a new empty server. */
    @Test
    void fillsANewEmptyServerWithLightRegionsWithoutUndoingLoadBalance() {
        Map<String, ServerName> servers = new LinkedHashMap<>();
        Map<String, RegionInfo> infos = new LinkedHashMap<>();
        List<Region> regions = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            ServerName sn = ServerName.valueOf("rs" + n, 16020, 1);
            servers.put(sn.getServerName(), sn);
            int count = n == 3 ? 0 : 10;
            for (int i = 0; i < count; i++) {
                RegionInfo ri = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setRegionId(n * 100L + i).build();
                infos.put(ri.getEncodedName(), ri);
                double ops = i == 0 ? 1000 : 10; // one hot region per server, the rest light
                regions.add(new Region(ri.getEncodedName(), "t", new KeyRange("", ""), sn.getServerName(),
                        (i + 1) * 1e8, new RegionCounters(ops, ops / 10, ops * 100, ops * 10)));
            }
            nodes.add(new Node(sn.getServerName(), 8, n == 3 ? 0.0 : 1.0, n == 3 ? 0.0 : 1e6));
        }
        HBaseSnapshot snap = new HBaseSnapshot(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions), infos,
                servers, List.of());
        LoadModel model = Planner.builder().build().estimate(snap.snapshot());
        Map<String, Integer> counts = new HashMap<>();
        Map<String, Double> sizes = new HashMap<>();
        regions.forEach(r -> {
            counts.merge(r.node(), 1, Integer::sum);
            sizes.put(r.id(), r.sizeBytes());
        });
        String empty = ServerName.valueOf("rs3", 16020, 1).getServerName();
        counts.put(empty, 0);
        List<MoveAction> moves = new RegionCountBand(0.2, 0.05).moves(model, counts, new Placement(snap, s -> ""),
                new HashSet<>(), sizes, 100);
        assertThat(moves).isNotEmpty().allSatisfy(m -> assertThat(m.to()).isEqualTo(empty));
        // 30 regions on 4 servers: mean 7.5, band ±20% -> the new server reaches at least floor(6.0)
        assertThat(moves.size()).isGreaterThanOrEqualTo(6);
        assertThat(moves).noneSatisfy(m -> assertThat(snap.snapshot().regions().stream()
                .filter(r -> r.id().equals(m.region())).findFirst().orElseThrow().counters().readOps()).isEqualTo(1000));
        // the new server stays within 1+λ of its target in both dimensions
        List<io.libra.core.estimate.RegionLoad> after = new ArrayList<>();
        java.util.Set<String> moved = new HashSet<>();
        moves.forEach(m -> moved.add(m.region()));
        model.regions().forEach(r -> after.add(moved.contains(r.id())
                ? new io.libra.core.estimate.RegionLoad(r.region().onNode(empty), r.cpu(), r.disk()) : r));
        LoadModel m2 = model.withRegions(after);
        int j = m2.nodeIndex(empty);
        assertThat(m2.normalized(j, Dimension.CPU)).isLessThan(1.05);
        assertThat(m2.normalized(j, Dimension.DISK)).isLessThan(1.05);
    }
}
