package io.libra.core.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.Clusters;
import io.libra.core.estimate.DiskCostModel;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.MetricMapping;
import io.libra.core.estimate.RegionCosts;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.model.Dimension;
import io.libra.core.plan.*;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanApplierTest {
    private static final Reason WHY = new Reason(Dimension.CPU, List.of(), null, null, "");
    private final LoadModel model = new MetricMapping(EstimationConfig.DEFAULT).estimate(Clusters.snapshot(2,
            List.of(Clusters.region(0, "n0", 100, 0, 100, 0), Clusters.region(1, "n0", 50, 0, 50, 0))));
    private final PlanApplier applier = new PlanApplier(EstimationConfig.DEFAULT);

    private static Plan plan(Action... actions) {
        Balance b = new Balance(1, 1, 0);
        return new Plan("libra", List.of(actions), b, b, PlanStatus.PLANNED, "");
    }

    @Test
    void movesCarryTheirLoadToTheDestination() {
        LoadModel after = applier.apply(model, plan(new MoveAction("r1", "n0", "n1", 1, WHY)));
        assertThat(after.load(1, Dimension.CPU)).isCloseTo(model.regions().get(1).cpu(), org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void aMoveToANodeOfAnotherSpeedCostsItsWorkAtThatSpeed() {
        LoadModel twiceAsSlow = model.withSpeeds(Dimension.CPU, new double[] {1, 2});
        LoadModel after = applier.apply(twiceAsSlow, plan(new MoveAction("r1", "n0", "n1", 1, WHY)));
        assertThat(after.load(1, Dimension.CPU)).isCloseTo(2 * model.regions().get(1).cpu(), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(after.load(1, Dimension.DISK)).isCloseTo(model.regions().get(1).disk(), org.assertj.core.data.Offset.offset(1e-12));
        LoadModel back = applier.apply(after, plan(new MoveAction("r1", "n1", "n0", 1, WHY)));
        assertThat(back.load(0, Dimension.CPU)).isCloseTo(model.load(0, Dimension.CPU), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aMoveToANodeOfAnotherDiskSpeedCostsItsBytesAtThatSpeed() {
        LoadModel slowDisk = model.withSpeeds(Dimension.DISK, new double[] {1, 1.5});
        LoadModel after = applier.apply(slowDisk, plan(new MoveAction("r1", "n0", "n1", 1, WHY)));
        assertThat(after.load(1, Dimension.DISK)).isCloseTo(1.5 * model.regions().get(1).disk(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(after.load(1, Dimension.CPU)).isCloseTo(model.regions().get(1).cpu(), org.assertj.core.data.Offset.offset(1e-12));
        LoadModel back = applier.apply(after, plan(new MoveAction("r1", "n1", "n0", 1, WHY)));
        assertThat(back.load(0, Dimension.DISK)).isCloseTo(model.load(0, Dimension.DISK), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void splitsReplaceTheRegionByTwoHalvesOnTheSameNode() {
        LoadModel after = applier.apply(model, plan(new SplitAction("r0", "0000000080", "a", "b", 0.5, WHY),
                new MoveAction("b", "n0", "n1", 1, WHY)));
        assertThat(after.regions()).extracting(r -> r.id()).containsExactlyInAnyOrder("a", "b", "r1");
        assertThat(after.total(Dimension.CPU)).isCloseTo(model.total(Dimension.CPU), org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void aSplitSharesTheRegionsLoadByTheCostThatSharedTheNodeTotals() {
        RegionCounters small = new RegionCounters(90, 0, 9_000, 0);
        RegionCounters large = new RegionCounters(10, 0, 655_360, 0);
        Region whole = new Region("r0", "t", new KeyRange("", "80"), "n0", 1e6, small.plus(large),
                List.of(new KeyBucket("40", small), new KeyBucket("80", large)), null);
        LoadModel mapped = new MetricMapping(EstimationConfig.DEFAULT).estimate(Clusters.snapshot(2, List.of(whole)));
        LoadModel byBytes = mapped.withCosts(new RegionCosts(RegionCounters::readOps, RegionCounters::readBytes));
        Plan split = plan(new SplitAction("r0", "40", "a", "b", 0.5, WHY));
        double disk = mapped.regions().get(0).disk();

        // the mapping floors each small read at a 4 KiB block; learnt weights on bytes alone do not
        assertThat(diskOf(applier.apply(mapped, split), "a") / disk).isCloseTo(
                DiskCostModel.DEFAULT.cost(small) / DiskCostModel.DEFAULT.cost(small.plus(large)),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(diskOf(applier.apply(byBytes, split), "a") / disk)
                .isCloseTo(9_000.0 / (9_000 + 655_360), org.assertj.core.data.Offset.offset(1e-9));
    }

    private static double diskOf(LoadModel m, String region) {
        return m.regions().stream().filter(r -> r.id().equals(region)).findFirst().orElseThrow().disk();
    }

    @Test
    void unknownRegionIsRefusedWithItsPath() {
        assertThatThrownBy(() -> applier.apply(model, plan(new MoveAction("r9", "n0", "n1", 1, WHY))))
                .isInstanceOf(InvalidPlanException.class).hasMessage("actions[0].region: unknown region r9");
    }

    @Test
    void aFromThatIsNotTheRegionsNodeIsRefused() {
        assertThatThrownBy(() -> applier.apply(model, plan(new MoveAction("r0", "n1", "n0", 1, WHY))))
                .hasMessage("actions[0].from: region r0 is on n0, not n1");
    }

    @Test
    void unknownDestinationIsRefused() {
        assertThatThrownBy(() -> applier.apply(model, plan(new MoveAction("r0", "n0", "n7", 1, WHY))))
                .hasMessage("actions[0].to: unknown node n7");
    }

    @Test
    void aSplitKeyOutsideTheRangeIsRefused() {
        assertThatThrownBy(() -> applier.apply(model, plan(new SplitAction("r1", "ff", "a", "b", 0.5, WHY))))
                .isInstanceOf(InvalidPlanException.class).hasMessageStartingWith("actions[0].splitKey: key ff is not inside region r1");
    }

    @Test
    void mergesJoinAdjacentRegions() {
        LoadModel after = applier.apply(model, plan(new MergeAction(List.of("r0", "r1"), "m", "n0", WHY)));
        assertThat(after.regions()).hasSize(1);
        assertThat(after.regions().get(0).region().range().endKey()).isEqualTo("00000002");
    }
}
