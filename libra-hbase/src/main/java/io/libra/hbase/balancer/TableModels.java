package io.libra.hbase.balancer;

import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.schedule.PlacementRule;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.StrategyOutcome;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
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

    /**
     * Plans {@code table} on its share of {@code cluster} with the store's placement rule asked
     * by the scheduler, as in whole-cluster mode: a refused destination is replaced by the
     * next-best in the same run. The prediction is the scheduler's own (nothing is re-applied).
     */
    static PlanResult plan(Planner planner, LoadModel cluster, String table, PlacementRule rule, InstantSource clock) {
        Instant start = clock.instant();
        LoadModel model = of(cluster, table);
        StrategyOutcome outcome = planner.strategy().outcome(model,
                new PlanningContext(planner.config(), planner.estimation(), rule));
        return new PlanResult(outcome.plan(), model, outcome.predicted(), Duration.between(start, clock.instant()));
    }
}
