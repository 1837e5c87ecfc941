package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.libra.core.Clusters;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The share of its forecast change that the last moves realised, from node totals before and after. */
class RealisedShareTest {
    /** Four nodes at 4 cores and 400 MB/s each before the moves. */
    private static final double[] CPU = {4, 4, 4, 4};
    private static final double[] DISK = {400e6, 400e6, 400e6, 400e6};

    private static ClusterSnapshot window(double[] cpu, double[] disk) {
        List<Node> nodes = new ArrayList<>();
        for (int j = 0; j < cpu.length; j++) {
            nodes.add(new Node("n" + j, 64, cpu[j], disk[j]));
        }
        List<Region> regions = List.of(Clusters.region(0, "n0", 1, 0, 1, 0));
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, nodes, regions);
    }

    /** A plan made on the even window that moved load from n0 to n1: forecast n0 −1 core −100 MB/s, n1 the opposite. */
    private static Plan moved() {
        return moved(new Balance(1, 1, 0));
    }

    private static Plan moved(Balance before) {
        List<NodeForecast> forecast = List.of(new NodeForecast("n0", 3, 300e6), new NodeForecast("n1", 5, 500e6),
                new NodeForecast("n2", 4, 400e6), new NodeForecast("n3", 4, 400e6));
        return new Plan("libra", List.of(new MoveAction("r0", "n0", "n1", 1e6, null)), before,
                new Balance(1.25, 1.25, 0.25), PlanStatus.PLANNED, "").withForecast(forecast, null);
    }

    private static Optional<PredictionCheck> check(Plan p, boolean carried, WorkloadShift shift) {
        return Optional.of(new PredictionCheck(0.1, Dimension.CPU, 0.25, false, carried, p.forecast(), shift));
    }

    private static Optional<RealisedShare> of(Plan p, double[] cpuNow, double[] diskNow) {
        return RealisedShare.of(p, window(CPU, DISK), window(cpuNow, diskNow), check(p, false, WorkloadShift.NONE));
    }

    @Test
    void movesThatShiftedHalfTheirForecastRealiseHalf() {
        Optional<RealisedShare> s = of(moved(), new double[] {3.5, 4.5, 4, 4}, new double[] {350e6, 450e6, 400e6, 400e6});
        assertThat(s).isPresent();
        assertThat(s.get().cpu()).isCloseTo(0.5, offset(1e-9));
        assertThat(s.get().disk()).isCloseTo(0.5, offset(1e-9));
        assertThat(s.get().describe()).contains("realised 50% of the CPU and 50% of the disk");
    }

    @Test
    void movesThatRealisedTheirForecastOrMoreLeaveTheModelAsItIs() {
        assertThat(of(moved(), new double[] {3, 5, 4, 4}, new double[] {300e6, 500e6, 400e6, 400e6})).isEmpty();
        assertThat(of(moved(), new double[] {2.5, 5.5, 4, 4}, new double[] {250e6, 550e6, 400e6, 400e6})).isEmpty();
    }

    /**
     * The forecast said n0 would give n1 a core, half of it came; the model refitted since (nodes of
     * different speeds, say) replays those moves as measured: nothing is left that stays behind.
     */
    @Test
    void movesTheRefittedModelReplaysAsMeasuredRealiseAllTheyShift() {
        double[] cpu = {3.5, 4.5, 4, 4};
        double[] disk = {350e6, 450e6, 400e6, 400e6};
        LoadModel replayed = new LoadModel(window(cpu, disk).nodes(), List.of(), cpu, disk);

        assertThat(RealisedShare.of(moved(), window(CPU, DISK), window(cpu, disk), check(moved(), false, WorkloadShift.NONE),
                Optional.of(replayed))).isEmpty();
        assertThat(of(moved(), cpu, disk)).isPresent();
    }

    /** 5% realised is more likely a forecast that missed for another reason than load that never moves. */
    @Test
    void aTinyRealisedShareIsFloored() {
        Optional<RealisedShare> s = of(moved(), new double[] {3.95, 4.05, 4, 4}, new double[] {395e6, 405e6, 400e6, 400e6});
        assertThat(s).isPresent();
        assertThat(s.get().cpu()).isEqualTo(RealisedShare.FLOOR);
        assertThat(s.get().disk()).isEqualTo(RealisedShare.FLOOR);
    }

    /** An adapter's last kept window need not be the one the plan was made on (a job over several windows). */
    @Test
    void aPlanMadeOnAnotherWindowGivesNoShare() {
        Plan other = moved(new Balance(1.2, 1.1, 0.2));
        assertThat(RealisedShare.of(other, window(CPU, DISK), window(new double[] {3.5, 4.5, 4, 4},
                new double[] {350e6, 450e6, 400e6, 400e6}), check(other, false, WorkloadShift.NONE))).isEmpty();
    }

    @Test
    void changesThatDoNotLineUpWithTheForecastAreNotRead() {
        assertThat(of(moved(), new double[] {4, 4, 3, 5}, new double[] {400e6, 400e6, 300e6, 500e6})).isEmpty();
    }

    @Test
    void noMovesACarriedForecastOrAWorkloadThatMovedGiveNoShare() {
        double[] cpu = {3.5, 4.5, 4, 4};
        double[] disk = {350e6, 450e6, 400e6, 400e6};
        Plan none = Plan.empty("libra", new Balance(1, 1, 0), PlanStatus.BALANCED, "").withForecast(moved().forecast(), null);
        assertThat(RealisedShare.of(none, window(CPU, DISK), window(cpu, disk), check(none, false, WorkloadShift.NONE))).isEmpty();
        assertThat(RealisedShare.of(moved(), window(CPU, DISK), window(cpu, disk), check(moved(), true, WorkloadShift.NONE)))
                .isEmpty();
        assertThat(RealisedShare.of(moved(), window(CPU, DISK), window(cpu, disk),
                check(moved(), false, new WorkloadShift(0.2, 0.2)))).isEmpty();
        assertThat(RealisedShare.of(moved(), null, window(cpu, disk), check(moved(), false, WorkloadShift.NONE))).isEmpty();
    }

    @Test
    void onlyTheShareMovesWithARegionAndTheRestStaysOnItsNode() {
        ClusterSnapshot s = Clusters.snapshot(2, List.of(Clusters.region(0, "n0", 100, 0, 100_000, 0),
                Clusters.region(1, "n1", 300, 0, 300_000, 0)));
        LoadModel m = new Estimator(EstimationConfig.DEFAULT, false).estimate(s, List.of()).model();
        LoadModel shared = m.withMovingShare(new RealisedShare(0.5, 0.25));
        for (int j = 0; j < 2; j++) {
            assertThat(shared.load(j, Dimension.CPU)).isCloseTo(m.load(j, Dimension.CPU), offset(1e-9));
            assertThat(shared.load(j, Dimension.DISK)).isCloseTo(m.load(j, Dimension.DISK), offset(1e-3));
        }
        assertThat(shared.regions().get(0).cpu()).isCloseTo(0.5 * m.regions().get(0).cpu(), offset(1e-12));
        assertThat(shared.regions().get(0).disk()).isCloseTo(0.25 * m.regions().get(0).disk(), offset(1e-6));
    }
}
