package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Once a round found the cluster balanced, planning resumes only above 2λ. */
class HysteresisTest {
    private final Planner planner = Planner.builder().build();

    /** {@link Clusters#tenEachAndOneMore} with the extra region on n0. */
    private static ClusterSnapshot withExtra(double extra) {
        return Clusters.tenEachAndOneMore("n0", extra);
    }

    private static Plan balanced() {
        return Plan.empty("libra", new Balance(1.03, 1.03, 0.03), PlanStatus.BALANCED, "Δ = 0.030 ≤ λ = 0.05");
    }

    private Plan plan(ClusterSnapshot s, Plan previous) {
        return planner.plan(new PlanRequest(s, List.of(), previous, false)).plan();
    }

    @Test
    void aDeltaBetweenLambdaAndTwiceLambdaIsPlannedWhenTheLastRoundWasNotBalanced() {
        Plan p = plan(withExtra(100), null);
        assertThat(p.before().imbalanceDegree()).isBetween(0.05, 0.10);
        assertThat(p.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(p.actions()).isNotEmpty();
    }

    @Test
    void afterABalancedRoundTheSameDeltaIsLeftAloneAndTheDetailSaysWhy() {
        Plan p = plan(withExtra(100), balanced());
        assertThat(p.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(p.actions()).isEmpty();
        assertThat(p.detail()).contains("≤ 2λ = 0.100").contains("hysteresis").contains("resumes above 0.100");
    }

    @Test
    void aRoundHeldByTheHysteresisKeepsHoldingTheNext() {
        Plan held = plan(withExtra(100), balanced());
        Plan next = plan(withExtra(100), held);
        assertThat(next.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(next.actions()).isEmpty();
    }

    /** {@code s} captured {@code second}s after the epoch, so windows of it can be a history. */
    private static ClusterSnapshot at(ClusterSnapshot s, long second) {
        return new ClusterSnapshot(s.store(), Instant.EPOCH.plusSeconds(second), s.windowSeconds(), s.nodes(), s.regions());
    }

    private Plan plan(ClusterSnapshot s, List<ClusterSnapshot> history, Plan previous) {
        return planner.plan(new PlanRequest(s, history, previous, false)).plan();
    }

    /**
     * While no region moves, each window measures the same layout again: the band is judged on the
     * mean of the windows since a region last moved, so one noisy window does not resume planning
     * (under node-speed, plans resumed so moved 45 GB in runs already within 1.10), while an
     * imbalance that lasts does. A window with another layout is not part of the mean.
     */
    @Test
    void whileNothingMovesTheBandIsJudgedOnTheMeanOfTheWindowsSinceARegionLastMoved() {
        ClusterSnapshot noisy = at(withExtra(200), 120);
        List<ClusterSnapshot> quiet = List.of(at(withExtra(100), 0), at(withExtra(100), 60));
        ClusterSnapshot elsewhere = at(withExtra(100), 60).withState(noisy.nodes(), noisy.regions().stream()
                .map(r -> r.id().equals("r40") ? r.onNode("n1") : r).toList());

        Plan alone = plan(noisy, List.of(), balanced());
        Plan held = plan(noisy, quiet, balanced());
        Plan lasting = plan(noisy, List.of(at(withExtra(200), 0), at(withExtra(200), 60)), balanced());
        Plan afterAMove = plan(noisy, List.of(at(withExtra(100), 0), elsewhere), balanced());

        assertThat(alone.before().imbalanceDegree()).isGreaterThan(0.10);
        assertThat(alone.actions()).isNotEmpty();
        assertThat(held.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(held.actions()).isEmpty();
        assertThat(held.detail()).contains("over the 3 windows since a region last moved (this one's")
                .contains("≤ 2λ = 0.100");
        assertThat(lasting.actions()).isNotEmpty();
        assertThat(afterAMove.actions()).isNotEmpty();
    }

    /** Four nodes of one region each, n0's 7% above the mean: with no splitting, no move helps (Δ ≈ 0.07). */
    private static ClusterSnapshot stuck() {
        double[] reads = {107, 100, 100, 93};
        List<Region> regions = new ArrayList<>();
        for (int j = 0; j < 4; j++) {
            regions.add(Clusters.region(j, "n" + j, reads[j], 0, reads[j] * 100, 0));
        }
        return Clusters.snapshot(4, regions);
    }

    @Test
    void aRoundStuckWithinTheBandAfterABalancedOneIsBalancedSoTheNextHoldsToo() {
        Planner noSplits = Planner.builder().config(SchedulerConfig.DEFAULT.withSplitting(false)).build();
        assertThat(noSplits.plan(new PlanRequest(stuck(), List.of(), null, false)).plan().status()).isEqualTo(PlanStatus.STUCK);
        Plan stuck = noSplits.plan(new PlanRequest(stuck(), List.of(), balanced(), false)).plan();
        assertThat(stuck.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(stuck.detail()).contains("hysteresis");
        Plan next = plan(withExtra(100), stuck);
        assertThat(next.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(next.actions()).isEmpty();
    }

    /**
     * After a plan whose forecast reached λ, what the next window measures above λ is that
     * forecast's error and the window's noise: the band holds as after a balanced round, and a
     * plan taking moves back does not count.
     */
    @Test
    void afterAPlanForecastWithinLambdaTheBandHoldsToo() {
        Plan moved = plan(withExtra(400), null);
        assertThat(moved.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(moved.predicted().imbalanceDegree()).isLessThanOrEqualTo(0.05);

        Plan next = plan(withExtra(100), moved);
        Plan far = plan(withExtra(400), moved);

        assertThat(next.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(next.actions()).isEmpty();
        assertThat(next.detail()).contains("the last plan forecast Δ = ").contains(", within λ: within the hysteresis");
        assertThat(far.detail()).doesNotContain("hysteresis");
        SchedulerConfig c = SchedulerConfig.DEFAULT;
        assertThat(Hysteresis.reached(moved, c)).isTrue();
        assertThat(Hysteresis.reached(balanced(), c)).isFalse();
        // a run keeps no actions that gain less than the benefit threshold, so it may stop just short of λ
        double forecast = moved.predicted().imbalanceDegree();
        SchedulerConfig small = new SchedulerConfig(forecast / 2, forecast / 4, 0, true, true, 0.0, 0.5);
        assertThat(Hysteresis.reached(moved, small)).isFalse();
        assertThat(Hysteresis.reached(moved, new SchedulerConfig(forecast / 2, forecast * 0.6, 0, true, true, 0.0, 0.5)))
                .isTrue();
    }

    /**
     * A plan cannot aim closer to λ than the forecast error it was planned with: one that forecast
     * Δ = 0.065 after a forecast that missed by 3% reached λ as far as it could tell, and the band
     * holds; the same plan made after a 1% miss, or with no forecast checked, did not.
     */
    @Test
    void aPlanForecastWithinLambdaAndTheErrorItWasPlannedWithSetsTheBand() {
        Plan moved = plan(withExtra(400), null);
        Balance near = new Balance(1.065, 1.065, 0.065);
        Plan afterAMiss = withError(new Plan("libra", moved.actions(), moved.before(), near, PlanStatus.PLANNED, ""), 0.03);
        Plan afterAHit = withError(afterAMiss, 0.01);
        Plan unchecked = withError(afterAMiss, Double.NaN);

        Plan next = plan(withExtra(100), afterAMiss);

        assertThat(next.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(next.detail()).contains("within λ and the forecast error it was planned with (3.0%)");
        assertThat(plan(withExtra(100), afterAHit).actions()).isNotEmpty();
        assertThat(plan(withExtra(100), unchecked).actions()).isNotEmpty();
    }

    private static Plan withError(Plan p, double lastPredictionError) {
        return p.withForecast(List.of(), new io.libra.core.plan.Estimation("learnt", 2, 0.01, lastPredictionError, ""));
    }

    /**
     * A conservative plan moved all that beat the planner's measured error; when it forecast Δ within
     * 2λ, what the next window measures within the band cannot be told from that error, so the band
     * holds (ycsb-f seed 23 under node-speed planned 142 moves for a forecast gain of 2.1% right after
     * one). Its actions' reasons say it was conservative, in the plan JSON too; a plan that was not
     * conservative, with the same forecast above λ, does not set the band.
     */
    @Test
    void afterAConservativePlanForecastWithin2LambdaTheBandHoldsToo() {
        Plan moved = plan(withExtra(400), null);
        Balance withinBand = new Balance(1.07, 1.07, 0.07);
        List<io.libra.core.plan.Action> marked = moved.actions().stream().map(a -> a.withReason(a.reason()
                .withNote("conservative: benefit above the measured forecast error 2.7%"))).toList();
        Plan conservative = new Plan("libra", marked, moved.before(), withinBand, PlanStatus.PLANNED, "conservative");
        Plan plain = new Plan("libra", moved.actions(), moved.before(), withinBand, PlanStatus.PLANNED, "plain");

        Plan afterConservative = plan(withExtra(100), conservative);
        Plan afterPlain = plan(withExtra(100), plain);

        assertThat(afterConservative.status()).isEqualTo(PlanStatus.BALANCED);
        assertThat(afterConservative.actions()).isEmpty();
        assertThat(afterConservative.detail()).contains("the last plan, conservative, forecast Δ = 0.070, within 2λ");
        assertThat(afterPlain.actions()).isNotEmpty();
        Plan roundTrip = io.libra.core.format.PlanCodec.read("plan.json", io.libra.core.format.PlanCodec.write(conservative,
                "0".repeat(64)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(Conservative.marked(roundTrip)).isTrue();
        assertThat(Conservative.marked(plain)).isFalse();
    }

    /**
     * A plan made with a flow error kept only the moves whose gain beat the error their traffic was
     * expected to bring: what it leaves within 2λ is that error, so the band holds after it as after a
     * conservative plan. A plan of another strategy with the same estimation weighed no flow, and does not.
     */
    @Test
    void afterAPlanThatWeighedItsMovesFlowForecastWithin2LambdaTheBandHoldsToo() {
        Plan moved = plan(withExtra(400), null);
        Balance withinBand = new Balance(1.07, 1.07, 0.07);
        io.libra.core.plan.Estimation how = new io.libra.core.plan.Estimation("learnt", 2, 0.02, 0.01, "", List.of(),
                new io.libra.core.plan.FlowError(0.1, 0.2));
        Plan weighed = new Plan("libra", moved.actions(), moved.before(), withinBand, PlanStatus.PLANNED, "", List.of(), how);
        Plan otherStrategy = new Plan("2d-wtd", moved.actions(), moved.before(), withinBand, PlanStatus.PLANNED, "",
                List.of(), how);

        Plan after = plan(withExtra(100), weighed);

        assertThat(after.actions()).isEmpty();
        assertThat(after.detail()).contains("the last plan, weighing the error its moves' traffic brings, forecast Δ = 0.070,"
                + " within 2λ");
        assertThat(Hysteresis.weighedFlow(otherStrategy)).isFalse();
        assertThat(Hysteresis.settled(otherStrategy, SchedulerConfig.DEFAULT)).isFalse();
    }

    @Test
    void aboveTwiceLambdaPlanningResumes() {
        Plan p = plan(withExtra(400), balanced());
        assertThat(p.before().imbalanceDegree()).isGreaterThan(0.10);
        assertThat(p.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(p.actions()).isNotEmpty();
    }
}
