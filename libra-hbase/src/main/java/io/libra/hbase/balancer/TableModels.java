package io.libra.hbase.balancer;

import io.libra.core.Assessment;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.schedule.PlacementRule;
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
     * A region counts at its own traffic's cost (the metric mapping's weights) times the
     * cluster's load per unit of that cost, not at its share of its server's measured load:
     * a server's load that its regions' counters do not explain (flushes, compactions, WAL
     * syncs, other work) would otherwise go to whichever regions sit there, and a table whose
     * traffic is even would look skewed. A region whose load the reporter measured keeps it.
     */
    static LoadModel of(LoadModel cluster, String table, EstimationConfig how) {
        double[] perCost = perUnitOfCost(cluster, how);
        List<RegionLoad> regions = new ArrayList<>();
        for (RegionLoad r : cluster.regions()) {
            if (r.region().table().equals(table)) {
                regions.add(new RegionLoad(r.region(),
                        own(r, Dimension.CPU, how.cpuWeight(r.region().counters()), perCost[0]),
                        own(r, Dimension.DISK, how.disk().cost(r.region().counters()), perCost[1])));
            }
        }
        return new LoadModel(cluster.nodes(), regions, new double[cluster.nodeCount()], new double[cluster.nodeCount()]);
    }

    /** The cluster's load per unit of cost in each dimension, over the regions not measured; NaN without cost. */
    private static double[] perUnitOfCost(LoadModel cluster, EstimationConfig how) {
        double[] load = new double[2];
        double[] cost = new double[2];
        for (RegionLoad r : cluster.regions()) {
            MeasuredLoad m = r.region().measured();
            if (!m.has(Dimension.CPU)) {
                load[0] += r.cpu();
                cost[0] += how.cpuWeight(r.region().counters());
            }
            if (!m.has(Dimension.DISK)) {
                load[1] += r.disk();
                cost[1] += how.disk().cost(r.region().counters());
            }
        }
        return new double[] {cost[0] > 0 ? load[0] / cost[0] : Double.NaN, cost[1] > 0 ? load[1] / cost[1] : Double.NaN};
    }

    private static double own(RegionLoad r, Dimension d, double cost, double perCost) {
        return r.region().measured().has(d) || Double.isNaN(perCost) ? r.of(d) : cost * perCost;
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
        LoadModel model = of(run.model(), table, planner.estimation());
        Assessment mine = run.on(model, clock.instant());
        StrategyOutcome outcome = planner.strategy().outcome(model, planner.context(run, rule));
        return planner.finish(outcome, mine);
    }
}
