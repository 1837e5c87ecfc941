package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.Clusters;
import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.CostFeatures;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.Followers;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Capacity;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With replica writes on nodes of unequal size ({@link Followers}), every move changes what each
 * node applies for the moved region's replicas. The loads a planning run works on must stay those
 * the plan's predicted state computes afresh, or the run would plan against loads no node will show.
 */
class ReplicaSharesTest {
    private static final double[] SIZE = {1.5, 0.75, 0.75};

    @Test
    void theRunsLoadsAfterEachMoveAreThoseOfThePlanAppliedAfresh() {
        LoadModel model = model().withSpeeds(Dimension.CPU, new double[] {0.8, 1.3, 1.0});
        WorkingState state = new WorkingState(model, new PlanningContext(SchedulerConfig.DEFAULT, EstimationConfig.DEFAULT));

        state.move(Candidate.of(state, 0, 1, 0, Dimension.DISK), List.of(), "test");
        state.move(Candidate.of(state, 3, 2, 1, Dimension.CPU), List.of(), "test");
        state.move(Candidate.of(state, 1, 1, 2, Dimension.DISK), List.of(), "test");
        LoadModel applied = new PlanApplier(EstimationConfig.DEFAULT).apply(model, state.actions());

        for (int j = 0; j < SIZE.length; j++) {
            for (Dimension d : Dimension.values()) {
                assertThat(state.normalised(j, d)).as("n%d %s", j, d).isCloseTo(applied.normalized(j, d), within(1e-9));
            }
        }
        assertThat(applied.total(Dimension.DISK)).isCloseTo(model.total(Dimension.DISK), within(1e-6 * model.total(Dimension.DISK)));
    }

    /** The share of the move the conditions weigh is what the destination gains: the region less the replica it applied. */
    @Test
    void theShareAtTheDestinationIsTheRegionLessTheReplicaItApplied() {
        LoadModel model = model();
        WorkingState state = new WorkingState(model, new PlanningContext(SchedulerConfig.DEFAULT, EstimationConfig.DEFAULT));
        RegionLoad r = model.regions().get(0);

        double share = Candidate.of(state, 0, 1, 0, Dimension.DISK).shareAtDestination(Dimension.DISK);

        assertThat(share * model.target(0, Dimension.DISK)).isCloseTo(r.disk() - model.replicaAt(r, Dimension.DISK, 0),
                within(1e-6 * r.disk()));
        assertThat(model.replicaAt(r, Dimension.DISK, 0)).isPositive();
    }

    /** Three nodes of capacities 2:1:1, each region writing as well as reading; replicas in both dimensions. */
    private static LoadModel model() {
        List<Node> nodes = new ArrayList<>();
        for (int j = 0; j < SIZE.length; j++) {
            nodes.add(new Node("n" + j, 8 * SIZE[j], 1, 1e8, new Capacity(8 * SIZE[j], 4e8 * SIZE[j])));
        }
        List<RegionLoad> regions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Region r = Clusters.region(i, "n" + (1 + i % 2), 500, 300 + 100 * i, 5e6, 2e6 * (i + 1));
            regions.add(new RegionLoad(r, 0.1 + 0.02 * i, 1e7 * (1 + i)));
        }
        Followers cpu = new Followers(1e-4, SIZE, 3, CostFeatures.prior(Dimension.CPU, EstimationConfig.DEFAULT));
        Followers disk = new Followers(2, SIZE, 3, CostFeatures.prior(Dimension.DISK, EstimationConfig.DEFAULT));
        return new LoadModel(nodes, regions, new double[] {0.5, 0.5, 0.5}, new double[] {1e8, 1e8, 1e8})
                .withFollowers(cpu, disk);
    }
}
