package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the previous plan's measured forecast error shapes the next plan. */
class ConservativeTest {
    private final Planner planner = Planner.builder().build();

    /** Four nodes of ten equal regions; n0 carries one more, four times as hot: Δ ≈ 0.27. */
    private static ClusterSnapshot slightlyHot() {
        List<Region> regions = new ArrayList<>();
        int i = 0;
        for (int j = 0; j < 4; j++) {
            for (int k = 0; k < 10; k++, i++) {
                regions.add(Clusters.region(i, "n" + j, 100, 0, 100 * 100, 0));
            }
        }
        regions.add(Clusters.region(i, "n0", 400, 0, 400 * 100, 0));
        return Clusters.snapshot(4, regions);
    }

    /** A previous plan that claimed to fix Δ 1 → 0 and forecast every node off by {@code error}, alternately up and down. */
    private static Plan previous(ClusterSnapshot now, double error, double claimed) {
        List<NodeForecast> forecast = new ArrayList<>();
        int k = 0;
        for (Node n : now.nodes()) {
            double f = k++ % 2 == 0 ? 1 + error : 1 - error;
            forecast.add(new NodeForecast(n.id(), n.cpuUsage() * f, n.diskBytesPerSec() * f));
        }
        return new Plan("libra", List.of(), new Balance(1 + claimed, 1 + claimed, claimed), new Balance(1, 1, 0),
                PlanStatus.PLANNED, "").withForecast(forecast, null);
    }

    private PlanResult plan(ClusterSnapshot s, Plan previous) {
        return planner.plan(new PlanRequest(s, List.of(), previous, false));
    }

    @Test
    void anAccurateForecastLeavesThePlanAsItIs() {
        ClusterSnapshot s = slightlyHot();
        PlanResult r = plan(s, previous(s, 0.01, 1.0));
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(r.plan().detail()).contains("off by 1.0%").doesNotContain("conservative");
    }

    @Test
    void aGainWithinTheForecastErrorIsNotWorthMoving() {
        ClusterSnapshot s = slightlyHot();
        double gain = plan(s, null).plan().before().imbalanceDegree() - plan(s, null).plan().predicted().imbalanceDegree();
        PlanResult r = plan(s, previous(s, gain + 0.05, 1.0));
        assertThat(r.plan().status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(r.plan().actions()).isEmpty();
        assertThat(r.plan().detail()).contains("not worth moving");
        assertThat(r.predicted().balance()).isEqualTo(r.before().balance());
    }

    /**
     * The last plan moved the nodes far (n0 measured six times what it does now) and its forecast held
     * to within a little more than this plan's gain: this plan moves the nodes a fraction as far,
     * so it expects a fraction of that error ({@link io.libra.core.estimate.PredictionCheck#scaleTo})
     * and goes ahead. Without the window the last plan was made on, how far it moved is unknown, and
     * the gain is held to the whole error.
     */
    @Test
    void aSmallStepAfterALargerPlanWhoseForecastHeldIsNotHeldToItsWholeError() {
        ClusterSnapshot s = slightlyHot();
        Plan fresh = plan(s, null).plan();
        double gain = fresh.before().imbalanceDegree() - fresh.predicted().imbalanceDegree();
        List<Node> heavy = new ArrayList<>();
        s.nodes().forEach(n -> heavy.add(n.id().equals("n0") ? n.withMeasured(n.cpuUsage() * 6, n.diskBytesPerSec() * 6) : n));
        ClusterSnapshot last = s.withState(heavy, s.regions());
        Plan big = new Plan("libra", List.of(new io.libra.core.plan.MoveAction("r0", "n1", "n0", 1e6, null)),
                io.libra.core.estimate.LoadModel.measuredBalance(last), new Balance(1, 1, 0), PlanStatus.PLANNED, "")
                .withForecast(previous(s, gain + 0.01, 1.0).forecast(), null);

        PlanResult r = planner.plan(new PlanRequest(s, List.of(last), big, false));
        assertThat(r.check().orElseThrow().conservative()).isFalse();
        assertThat(r.check().orElseThrow().scaleTo(r.check().orElseThrow().change() / 4)).isLessThan(1);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(r.plan().actions()).isNotEmpty();

        PlanResult unscaled = planner.plan(new PlanRequest(s, List.of(), big, false));
        assertThat(unscaled.plan().actions()).isEmpty();
        assertThat(unscaled.plan().detail()).contains("not worth moving");
    }

    @Test
    void aForecastOffByMoreThanItClaimedMakesThePlanConservative() {
        ClusterSnapshot s = slightlyHot();
        PlanResult r = plan(s, previous(s, 0.08, 0.05));
        assertThat(r.plan().detail()).contains("conservative");
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(r.plan().actions()).isNotEmpty();
        for (Action a : r.plan().actions()) {
            assertThat(a.reason().note()).contains("conservative: benefit above the measured forecast error 8.0%");
        }
    }

    /** A plan made on {@code before} that moved r0 to n1 and forecast every node a quarter off, claiming to fix 1%. */
    private static Plan movedHotRegion(ClusterSnapshot before) {
        List<NodeForecast> forecast = new ArrayList<>();
        before.nodes().forEach(n -> forecast.add(new NodeForecast(n.id(), n.cpuUsage() * 1.25, n.diskBytesPerSec() * 0.75)));
        Balance was = io.libra.core.estimate.LoadModel.measuredBalance(before);
        return new Plan("libra", List.of(new io.libra.core.plan.MoveAction("r0", "n0", "n1", 1e6, null)), was,
                new Balance(was.cpuMaxOverMean(), was.diskMaxOverMean(), was.imbalanceDegree() - 0.01), PlanStatus.PLANNED, "")
                .withForecast(forecast, null);
    }

    /**
     * The forecast missed by far more than it claimed, but the model refitted on the window that
     * measured the move replays it to the nodes' measured totals and explains nodes it was not
     * fitted on: the miss was the old model's, so the plan is weighed against the refit's error,
     * and says so. Where the move cost more than the regions' counters say (the receiver's disk
     * 60% up), the replay misses too, and the plan is weighed against that.
     */
    @Test
    void aMissTheRefittedModelReplaysIsWeighedByTheRefitsError() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 60);
        PlanResult r = planner.plan(new PlanRequest(now, List.of(before), movedHotRegion(before), false));

        io.libra.core.estimate.PredictionCheck check = r.check().orElseThrow();
        assertThat(check.conservative()).isTrue();
        assertThat(check.error()).isGreaterThan(0.2);
        assertThat(check.refitted()).isTrue();
        assertThat(check.bound()).isLessThan(0.05);
        assertThat(r.plan().detail()).contains("the model refitted on this window would have been off by");
        assertThat(Conservative.config(planner.config(), r.check(), 0).lambda()).isLessThan(0.1);

        List<Node> costlier = new ArrayList<>();
        now.nodes().forEach(n -> costlier.add(n.id().equals("n1") ? n.withMeasured(n.cpuUsage(), n.diskBytesPerSec() * 1.6) : n));
        PlanResult missed = planner.plan(new PlanRequest(now.withState(costlier, now.regions()), List.of(before),
                movedHotRegion(before), false));
        assertThat(missed.check().orElseThrow().bound()).isGreaterThan(0.05);
    }

    /**
     * A miss of 8.6% raises λ and the benefit threshold to it while the measured Δ is within λ and
     * that error. Further out, a threshold above every region's share would leave nothing to move
     * however far out the cluster is (cache-skew seed 7 stayed at disk 1.163 for four windows, its
     * largest region 3% of a node): λ still rises, the benefit threshold does not, and the plan as a
     * whole must still gain more than the error ({@link Conservative#withinNoise}). The same holds for
     * a check a held-back plan carried on, which knows no Δ of its own: the Δ measured now decides
     * (cache-skew seed 10 under node-speed stayed at disk 1.213 for six windows, stuck).
     */
    @Test
    void farBeyondTheErrorTheBenefitThresholdStaysWhereItWas() {
        io.libra.core.schedule.SchedulerConfig c = planner.config();
        double near = c.lambda() + 0.05;
        double far = 0.166;
        for (io.libra.core.estimate.PredictionCheck k : List.of(check(0.086, near), carried(0.086))) {
            assertThat(Conservative.config(c, java.util.Optional.of(k), near).benefitThreshold()).isEqualTo(0.086);
            assertThat(Conservative.config(c, java.util.Optional.of(k), far).benefitThreshold()).isEqualTo(c.benefitThreshold());
            assertThat(Conservative.config(c, java.util.Optional.of(k), far).lambda()).isEqualTo(0.086);
        }
    }

    /** A check carried on by a held-back plan: no Δ before or after moves. */
    private static io.libra.core.estimate.PredictionCheck carried(double error) {
        return new io.libra.core.estimate.PredictionCheck(error, io.libra.core.model.Dimension.DISK, 0.1, true, true,
                List.of(), null, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private static io.libra.core.estimate.PredictionCheck check(double error, double deltaNow) {
        return new io.libra.core.estimate.PredictionCheck(error, io.libra.core.model.Dimension.DISK, 0.1, true, false,
                List.of(), null, 0.162, deltaNow, Double.NaN, Double.NaN);
    }

    @Test
    void assessThenFinishIsWhatPlanDoes() {
        ClusterSnapshot s = slightlyHot();
        PlanRequest req = new PlanRequest(s, List.of(), previous(s, 0.08, 0.05), false);
        Assessment a = planner.assess(req, m -> m);
        assertThat(a.conservative()).isTrue();
        assertThat(a.config().lambda()).isGreaterThan(planner.config().lambda());
        PlanResult finished = planner.finish(planner.strategy().outcome(a.model(),
                new io.libra.core.schedule.PlanningContext(a.config(), planner.estimation())), a);
        PlanResult planned = planner.plan(req);
        assertThat(finished.plan().actions()).isEqualTo(planned.plan().actions());
        assertThat(finished.plan().forecast()).isEqualTo(planned.plan().forecast()).isNotEmpty();
        assertThat(finished.plan().detail()).isEqualTo(planned.plan().detail()).contains("conservative");
    }

    @Test
    void finishHoldsBackAnotherSearchsGainWithinTheForecastError() {
        ClusterSnapshot s = slightlyHot();
        double gain = plan(s, null).plan().before().imbalanceDegree() - plan(s, null).plan().predicted().imbalanceDegree();
        Assessment a = planner.assess(new PlanRequest(s, List.of(), previous(s, gain + 0.05, 1.0), false), m -> m);
        Planner other = Planner.builder().strategy("1d-cpu").build();
        PlanResult r = planner.finish(other.strategy().outcome(a.model(),
                new io.libra.core.schedule.PlanningContext(a.config(), planner.estimation())), a);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(r.plan().detail()).contains("not worth moving");
        assertThat(r.plan().forecast()).hasSize(4);
    }

    @Test
    void aRoundThatMovedNothingDoesNotForgetTheMiss() {
        ClusterSnapshot s = slightlyHot();
        double gain = plan(s, null).plan().before().imbalanceDegree() - plan(s, null).plan().predicted().imbalanceDegree();
        Plan quiet = plan(s, previous(s, gain + 0.05, 1.0)).plan();
        assertThat(quiet.actions()).isEmpty();
        // the quiet plan forecast "as now", and the next window is exactly that: only the earlier miss holds it back
        assertThat(plan(s, null).plan().actions()).isNotEmpty();
        PlanResult next = plan(s, quiet);
        assertThat(next.plan().status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(next.plan().actions()).isEmpty();
        assertThat(next.plan().detail()).contains("conservative")
                .contains(String.format(java.util.Locale.ROOT, "the last plan moved nothing; the forecast of the moves before it"
                        + " is off by %.1f%%", 100 * (gain + 0.05)));
        assertThat(next.plan().estimation().lastPredictionError()).isCloseTo(gain + 0.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(quiet.forecast()).isEqualTo(previous(s, gain + 0.05, 1.0).forecast());
    }

    @Test
    void aTransientMissFadesOnceTheNodesReachTheForecast() {
        ClusterSnapshot s = slightlyHot();
        Plan moves = previous(s, 0, 1.0);
        // a window taken while the moved regions settled: every node 50% above the forecast, a third of what it measures
        List<Node> settling = new ArrayList<>();
        for (Node n : s.nodes()) {
            settling.add(n.withMeasured(n.cpuUsage() * 1.5, n.diskBytesPerSec() * 1.5));
        }
        Plan quiet = plan(s.withState(settling, s.regions()), moves).plan();
        assertThat(quiet.actions()).isEmpty();
        assertThat(quiet.detail()).contains("off by 33.3%");
        // settled: the nodes measure what the moves forecast, so the miss is gone and the planner acts again
        PlanResult next = plan(s, quiet);
        assertThat(next.plan().estimation().lastPredictionError()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(next.plan().actions()).isEqualTo(plan(s, null).plan().actions()).isNotEmpty();
    }

    @Test
    void aPlanThatMovedIsJudgedOnItsOwnForecast() {
        ClusterSnapshot s = slightlyHot();
        Plan moved = plan(s, null).plan();
        assertThat(moved.actions()).isNotEmpty();
        Plan asIfOffBefore = moved.withForecast(moved.forecast(), moved.estimation().withLastPredictionError(0.5));
        PlanResult next = plan(s, asIfOffBefore);
        assertThat(next.plan().detail()).contains("last plan's forecast was off by").doesNotContain("moved nothing");
        assertThat(next.plan().estimation().lastPredictionError()).isLessThan(0.5);
    }
    /** The window before {@link #slightlyHot()}: the same, but its hot region was not yet hot (a new workload). */
    private static ClusterSnapshot beforeItTurnedHot() {
        return idleBefore(r -> r.id().equals("r40"));
    }

    /** The window before {@link #slightlyHot()}, the regions {@code idle} picks then serving nothing. */
    private static ClusterSnapshot idleBefore(java.util.function.Predicate<Region> idle) {
        List<Region> regions = new ArrayList<>();
        int i = 0;
        for (Region r : slightlyHot().regions()) {
            regions.add(idle.test(r) ? Clusters.region(i, r.node(), 0, 0, 0, 0) : r);
            i++;
        }
        return Clusters.snapshot(4, regions);
    }

    @Test
    void aMissTheWorkloadItselfExplainsIsNotHeldAgainstTheModel() {
        ClusterSnapshot s = slightlyHot();
        Plan missed = previous(s, 0.15, 0.05);
        PlanResult sameWorkload = planner.plan(new PlanRequest(s, List.of(s), missed, false));
        assertThat(sameWorkload.plan().detail()).contains("conservative").doesNotContain("workload itself moved");
        PlanResult newWorkload = planner.plan(new PlanRequest(s, List.of(beforeItTurnedHot()), missed, false));
        // n0 went from 1,000 to 1,400 requests/s: a shift of 400 / 4,400 = 9.1%, over half the 15% miss
        assertThat(newWorkload.plan().detail()).contains("off by 15.0%")
                .contains("the workload itself moved by 9.1% since the last window").doesNotContain("conservative");
        assertThat(newWorkload.plan().actions()).isNotEmpty();
        assertThat(newWorkload.plan().actions().get(0).reason().note()).doesNotContain("conservative");
    }

    @Test
    void aHeldBackPlanOnANewWorkloadStartsAFreshForecast() {
        ClusterSnapshot s = slightlyHot();
        double gain = plan(s, null).plan().before().imbalanceDegree() - plan(s, null).plan().predicted().imbalanceDegree();
        Plan missed = previous(s, gain + 0.05, 1.0);
        Plan quietOnSameWorkload = planner.plan(new PlanRequest(s, List.of(s), missed, false)).plan();
        assertThat(quietOnSameWorkload.actions()).isEmpty();
        assertThat(quietOnSameWorkload.forecast()).isEqualTo(missed.forecast());
        // n0 served nothing a window ago: the old moves' forecast is not carried on, the next window checks this one's own
        ClusterSnapshot idleN0 = idleBefore(r -> r.node().equals("n0"));
        Plan quiet = planner.plan(new PlanRequest(s, List.of(idleN0), missed, false)).plan();
        assertThat(quiet.detail()).contains("the workload itself moved by 31.8%");
        assertThat(quiet.actions()).isEmpty();
        assertThat(quiet.forecast()).isNotEqualTo(missed.forecast());
        PlanResult next = planner.plan(new PlanRequest(s, List.of(s), quiet, false));
        assertThat(next.plan().estimation().lastPredictionError()).isLessThan(0.01);
        assertThat(next.plan().actions()).isEqualTo(plan(s, null).plan().actions()).isNotEmpty();
    }
}
