package io.libra.hbase.balancer;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import java.util.ArrayList;
import java.util.List;

/** One table's share of a cluster's load model, for by-table balancing. */
final class TableModels {
    private TableModels() {
    }

    /**
     * The same servers carrying only {@code table}'s regions and no base load: its targets are
     * that table's load spread over the servers (by capacity share when capacities are declared).
     */
    static LoadModel of(LoadModel cluster, String table) {
        List<RegionLoad> regions = new ArrayList<>();
        for (RegionLoad r : cluster.regions()) {
            if (r.region().table().equals(table)) {
                regions.add(r);
            }
        }
        return new LoadModel(cluster.nodes(), regions, new double[cluster.nodeCount()], new double[cluster.nodeCount()]);
    }
}
