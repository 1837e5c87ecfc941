package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.apply.PlanApplier;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HindcastTest {
    private final Estimator estimator = new Estimator(EstimationConfig.DEFAULT);

    /** A plan made on {@code before} carrying out {@code actions}, whose forecast was every node off by a quarter. */
    private static Plan madeOn(ClusterSnapshot before, List<Action> actions) {
        List<NodeForecast> forecast = new ArrayList<>();
        before.nodes().forEach(n -> forecast.add(new NodeForecast(n.id(), n.cpuUsage() * 1.25, n.diskBytesPerSec() * 0.75)));
        return new Plan("libra", actions, LoadModel.measuredBalance(before), new Balance(1, 1, 0), PlanStatus.PLANNED, "")
                .withForecast(forecast, null);
    }

    private double replay(Plan previous, ClusterSnapshot before, ClusterSnapshot now) {
        Estimator.Estimate e = estimator.estimate(now, List.of(before));
        return error(Hindcast.replayed(previous, before, estimator, e, new PlanApplier(EstimationConfig.DEFAULT)::apply), now);
    }

    /** The replay's error against the nodes {@code now}, in the worse dimension; NaN without a replay. */
    private static double error(java.util.Optional<LoadModel> replay, ClusterSnapshot now) {
        return replay.map(after -> PredictionCheck.errors(after.forecast(), now)).map(x -> Math.max(x[0], x[1]))
                .orElse(Double.NaN);
    }

    /** Node totals that follow the regions' counters: the refitted model replays the move to the measured totals. */
    @Test
    void aMoveTheRefittedModelExplainsReplaysClosely() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 60);
        Plan previous = madeOn(before, List.of(new MoveAction("r0", "n0", "n1", 1e6, null)));

        assertThat(PredictionCheck.of(previous, now, 0.05, before).orElseThrow().error()).isGreaterThan(0.2);
        assertThat(replay(previous, before, now)).isLessThan(0.01);
    }

    /** The hot region on n1, where its disk costs 1.6 times what its counters say. */
    private static ClusterSnapshot costlierOnN1() {
        ClusterSnapshot after = Clusters.hotRegionOn("n1", 60);
        List<io.libra.core.model.Node> nodes = new ArrayList<>();
        after.nodes().forEach(n -> nodes.add(n.id().equals("n1") ? n.withMeasured(n.cpuUsage(), n.diskBytesPerSec() * 1.6) : n));
        return after.withState(nodes, after.regions());
    }

    /** A region that costs more where it went than its counters say shows in the replay as in the forecast. */
    @Test
    void aCostTheModelCannotExpressStaysInTheReplay() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = costlierOnN1();
        Plan previous = madeOn(before, List.of(new MoveAction("r0", "n0", "n1", 1e6, null)));

        assertThat(replay(previous, before, now)).isGreaterThan(0.05);
    }

    @Test
    void onlyPlansMadeOnTheWindowBeforeAreReplayed() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 60);
        Plan moves = madeOn(before, List.of(new MoveAction("r0", "n0", "n1", 1e6, null)));

        assertThat(replay(madeOn(before, List.of()), before, now)).isNaN();
        assertThat(replay(madeOn(now, moves.actions()), before, now)).as("made on another window").isNaN();
        assertThat(replay(madeOn(before, List.of(new MoveAction("r0", "n0", "n9", 1e6, null))), before, now))
                .as("to a node that is gone").isNaN();
    }

    /**
     * A plan that split a region and moved both halves replays as the planner carried it out (the
     * halves estimated from the region as it was), so a first plan with splits is checked as well.
     */
    @Test
    void splitsAreReplayedAsThePlanCarriedThemOut() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 60);
        Plan splitAndMove = madeOn(before, List.of(new SplitAction("r0", "00", "r0.l", "r0.r", 0.5, null),
                new MoveAction("r0.l", "n0", "n1", 5e5, null), new MoveAction("r0.r", "n0", "n1", 5e5, null)));

        assertThat(replay(splitAndMove, before, now)).isLessThan(0.01);
        assertThat(replay(madeOn(before, List.of(new SplitAction("r0", "00", "r0.l", "r0.r", 0.5, null))), before, now))
                .as("the halves left where the whole region was").isGreaterThan(0.05);
    }

    private double layoutReplay(ClusterSnapshot now, List<ClusterSnapshot> history) {
        Estimator.Estimate e = estimator.estimate(now, history);
        return error(Hindcast.layoutReplayed(now, history, estimator, e, new PlanApplier(EstimationConfig.DEFAULT)::apply), now);
    }

    /**
     * After quiet windows (plans held back, nothing moved), the moves are read off the layouts:
     * from the newest window with another one, replayed on the model refitted on every window.
     */
    @Test
    void aCarriedForecastsMovesAreReplayedFromTheLayoutsWhenNoPlanNamesThem() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot quiet = Clusters.hotRegionOn("n1", 60);
        ClusterSnapshot now = Clusters.hotRegionOn("n1", 120);

        assertThat(layoutReplay(now, List.of(before, quiet))).isLessThan(0.01);
        assertThat(layoutReplay(now, List.of(quiet))).as("no window of another layout").isNaN();
        assertThat(layoutReplay(now, List.of())).isNaN();
    }

    /** A cost the model cannot express stays in the layout's replay too; a split between the layouts has no moves to replay. */
    @Test
    void aLayoutReplayKeepsWhatTheModelCannotExpressAndNeedsTheSameRegions() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = costlierOnN1();

        assertThat(layoutReplay(now, List.of(before))).isGreaterThan(0.05);
        ClusterSnapshot fewer = now.withState(now.nodes(), now.regions().subList(1, now.regions().size()));
        assertThat(layoutReplay(fewer, List.of(before))).as("a region gone between the layouts").isNaN();
    }

    /**
     * A region split since the layout before counts as moved to the node its halves sit on (a
     * carried check after the planner's own splits), and two regions merged since as moved where
     * the merged one is; halves on two nodes have no one move to replay.
     */
    @Test
    void aLayoutReplayFollowsARegionSplitOrMergedSince() {
        ClusterSnapshot before = Clusters.hotRegionOn("n0", 0);

        assertThat(layoutReplay(halvesOfR0(List.of("n1", "n1"), false), List.of(before))).isLessThan(0.01);
        assertThat(layoutReplay(halvesOfR0(List.of("n1", "n1"), true), List.of(before))).as("r1 and r2 merged too")
                .isLessThan(0.01);
        assertThat(layoutReplay(halvesOfR0(List.of("n1", "n2"), false), List.of(before))).as("halves apart").isNaN();
    }

    /**
     * {@link Clusters#hotRegionOn}'s layout a minute later with r0 split in two, the halves on
     * {@code nodes}, and r1 and r2 merged into one region on their node when {@code merged}.
     */
    private static ClusterSnapshot halvesOfR0(List<String> nodes, boolean merged) {
        List<Region> regions = new ArrayList<>();
        for (Region r : Clusters.hotRegionOn("n0", 60).regions()) {
            if (r.id().equals("r0")) {
                String mid = "00000000";
                RegionCounters c = r.counters();
                RegionCounters half = new RegionCounters(c.readOps() / 2, c.writeOps() / 2, c.readBytes() / 2, c.writeBytes() / 2);
                regions.add(new Region("r0.l", r.table(), r.range().left(mid), nodes.get(0), r.sizeBytes() / 2, half));
                regions.add(new Region("r0.r", r.table(), r.range().right(mid), nodes.get(1), r.sizeBytes() / 2, half));
            } else if (merged && r.id().equals("r1")) {
                Region r2 = Clusters.hotRegionOn("n0", 60).regions().get(2);
                RegionCounters a = r.counters();
                RegionCounters b = r2.counters();
                regions.add(new Region("r1+r2", r.table(), new KeyRange(r.range().startKey(), r2.range().endKey()), r.node(),
                        r.sizeBytes() + r2.sizeBytes(), new RegionCounters(a.readOps() + b.readOps(), a.writeOps() + b.writeOps(),
                        a.readBytes() + b.readBytes(), a.writeBytes() + b.writeBytes())));
            } else if (!(merged && r.id().equals("r2"))) {
                regions.add(r);
            }
        }
        ClusterSnapshot s = Clusters.snapshot(4, regions);
        return new ClusterSnapshot(s.store(), s.capturedAt().plusSeconds(60), s.windowSeconds(), s.nodes(), s.regions());
    }
}
