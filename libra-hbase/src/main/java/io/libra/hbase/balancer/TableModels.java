package io.libra.hbase.balancer;

import io.libra.core.Assessment;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.schedule.PlacementRule;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.StrategyOutcome;
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
     * Plans {@code table} on its share of the run's model with the store's placement rule asked
     * by the scheduler, as in whole-cluster mode: a refused destination is replaced by the
     * next-best in the same run. The run's assessment sets the scheduler's settings (conservative
     * after a missed forecast), and {@code planner} finishes the plan as the core does any other:
     * a gain within the last forecast error is held back, and the plan's detail and its actions'
     * reasons say when it is conservative.
     */
    static PlanResult plan(Planner planner, Assessment run, String table, PlacementRule rule, InstantSource clock) {
        LoadModel model = of(run.model(), table);
        Assessment mine = new Assessment(run.snapshot(), model, run.check(), run.estimation(), run.config(),
                clock.instant());
        StrategyOutcome outcome = planner.strategy().outcome(model,
                new PlanningContext(run.config(), planner.estimation(), rule));
        return planner.finish(outcome, mine);
    }
}
