package io.libra.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.SplitAction;
import io.libra.core.schedule.SchedulerConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan made on the last window recalled from the windows alone: what the next window shows of it
 * (its actions, nothing, or other moves and splits) decides what stands for it.
 */
class ReplayedRoundsTest {
    private static final Planner PLANNER = Planner.builder().config(SchedulerConfig.DEFAULT).build();

    /** A window a minute after {@code w} with these regions, its node totals following them. */
    private static ClusterSnapshot later(ClusterSnapshot w, List<Region> regions) {
        ClusterSnapshot s = Clusters.snapshot(4, regions);
        return new ClusterSnapshot(s.store(), w.capturedAt().plusSeconds(60), s.windowSeconds(), s.nodes(), s.regions());
    }

    private static Region piece(Region r, String id, String start, String end, String node) {
        return new Region(id, r.table(), new KeyRange(start, end), node, r.sizeBytes() / 2, r.counters());
    }

    /** r5 moved to n2; r7 split by the store into pieces it named x and y, y moved to n3. */
    private static ClusterSnapshot movedAndSplit(ClusterSnapshot w) {
        List<Region> regions = new ArrayList<>();
        for (Region r : w.regions()) {
            if (r.id().equals("r5")) {
                regions.add(r.onNode("n2"));
            } else if (r.id().equals("r7")) {
                String mid = "00000007" + "8";
                regions.add(piece(r, "x", r.range().startKey(), mid, r.node()));
                regions.add(piece(r, "y", mid, r.range().endKey(), "n3"));
            } else {
                regions.add(r);
            }
        }
        return later(w, regions);
    }

    @Test
    void theMovesAndSplitsBetweenTwoWindowsAreSeenWhateverTheStoreNamedThePieces() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot next = movedAndSplit(w);

        List<Action> seen = SeenChanges.between(w, next).orElseThrow();

        assertThat(seen).hasSize(3);
        SplitAction split = (SplitAction) seen.get(0);
        assertThat(List.of(split.region(), split.splitKey(), split.left(), split.right()))
                .containsExactly("r7", "000000078", "x", "y");
        assertThat(seen.subList(1, 3)).extracting(a -> ((MoveAction) a).region() + ":" + ((MoveAction) a).from()
                + ">" + ((MoveAction) a).to()).containsExactlyInAnyOrder("r5:n0>n2", "y:n0>n3");
        Plan asPlan = new Plan("libra", seen, null, null, PlanStatus.PLANNED, "seen");
        assertThat(Layout.after(w, asPlan).orElseThrow().sameAs(Layout.of(next))).isTrue();
        assertThat(Layout.of(w).sameAs(Layout.of(next))).isFalse();
    }

    @Test
    void aMergeIsNotAChangeTheWindowsCanName() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        List<Region> regions = new ArrayList<>();
        for (Region r : w.regions()) {
            if (r.id().equals("r8")) {
                regions.add(piece(r, "m", r.range().startKey(), w.regions().get(9).range().endKey(), r.node()));
            } else if (!r.id().equals("r9")) {
                regions.add(r);
            }
        }

        assertThat(SeenChanges.between(w, later(w, regions))).isEmpty();
    }

    /**
     * Windows in which nothing moved recall a round that held back, without planning them again: Δ of
     * 0.07 over the two windows is within the hysteresis, so nothing moves, and the plan says why. A
     * first plan on the same windows would move r0.
     */
    @Test
    void windowsInWhichNothingMovedRecallARoundThatHeldBack() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        ClusterSnapshot now = Clusters.hotRegionOn("n0", 60);

        Plan recalled = ReplayedRounds.lastPlan(PLANNER, List.of(w), now).orElseThrow();
        Plan held = PLANNER.plan(new PlanRequest(now, List.of(w), recalled, false)).plan();

        assertThat(recalled.isBalanced()).isTrue();
        assertThat(held.actions()).isEmpty();
        assertThat(held.detail()).contains("no region moved in the 2 windows given").contains("within the hysteresis");
        assertThat(PLANNER.plan(new PlanRequest(now, List.of(w), null, false)).plan().actions()).isNotEmpty();
        assertThat(ReplayedRounds.lastPlan(PLANNER, List.of(), now)).as("no windows before it").isEmpty();
    }

    /** Windows between which most regions moved follow no balancer's round: nothing is planned again or recalled. */
    @Test
    void windowsDrawnIndependentlyRecallNothing() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        List<Region> elsewhere = w.regions().stream()
                .map(r -> r.onNode("n" + (Integer.parseInt(r.node().substring(1)) + 1) % 4)).toList();

        assertThat(ReplayedRounds.lastPlan(PLANNER, List.of(w), later(w, elsewhere))).isEmpty();
    }

    @Test
    void aPlanCarriedOutIsRecalledItselfAndOneNotCarriedOutAsARoundThatHeldBack() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        PlanResult planned = PLANNER.plan(PlanRequest.of(w));
        PlanApplier applier = new PlanApplier(PLANNER.estimation());
        List<Region> carriedOut = applier.apply(planned.before(), planned.plan()).regions().stream()
                .map(RegionLoad::region).toList();

        assertThat(planned.plan().actions()).as("r0 split and half of it moved").hasSize(2);
        assertThat(ReplayedRounds.standing(planned, w, later(w, carriedOut), applier)).isSameAs(planned.plan());
        Plan notCarriedOut = ReplayedRounds.standing(planned, w, later(w, w.regions()), applier);
        assertThat(notCarriedOut.isBalanced()).isTrue();
        assertThat(notCarriedOut.detail()).isEqualTo(ReplayedRounds.HELD_BACK);
    }

    /** Other moves than the round's stand as its plan, each node forecast by the round's own estimate. */
    @Test
    void otherMovesStandAsTheRoundsPlanWithItsForecastForThem() {
        ClusterSnapshot w = Clusters.hotRegionOn("n0", 0);
        PlanResult planned = PLANNER.plan(PlanRequest.of(w));
        PlanApplier applier = new PlanApplier(PLANNER.estimation());

        Plan seen = ReplayedRounds.standing(planned, w, movedAndSplit(w), applier);

        assertThat(seen.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(seen.detail()).isEqualTo(ReplayedRounds.SEEN);
        assertThat(seen.actions()).hasSize(3);
        assertThat(seen.forecast()).hasSize(4);
        assertThat(seen.estimation()).isEqualTo(planned.plan().estimation());
        double n3 = seen.forecast().stream().filter(f -> f.id().equals("n3")).findFirst().orElseThrow().cpu();
        double n3Before = w.nodes().stream().filter(n -> n.id().equals("n3")).findFirst().orElseThrow().cpuUsage();
        assertThat(n3).as("n3 took half of r7").isGreaterThan(n3Before);
    }
}
