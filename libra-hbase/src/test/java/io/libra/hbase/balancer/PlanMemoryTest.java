package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.OwnLoad;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class PlanMemoryTest {
    private final ClusterSnapshot base = Skewed.snapshot();
    private final List<String> log = new ArrayList<>();
    private final PlanMemory memory = new PlanMemory();

    private ClusterSnapshot at(int minute) {
        return Skewed.after(base, Map.of(), Skewed.AT.plusSeconds(60L * minute));
    }

    /** The window {@code minute} minutes on, with r-0 on rs-3 as {@link #moveR0()} planned. */
    private ClusterSnapshot r0MovedAt(int minute) {
        return Skewed.after(base, Map.of("r-0", "rs-3"), Skewed.AT.plusSeconds(60L * minute));
    }

    /** A plan moving r-0 from rs-1 to rs-3, with its forecast. */
    private Plan moveR0() {
        Plan p = Planner.builder().build().plan(base).plan();
        return new Plan(p.strategy(), List.of(new MoveAction("r-0", "rs-1", "rs-3", 0, null)), p.before(), p.predicted(),
                p.status(), "", p.forecast(), p.estimation());
    }

    /** A plan held back after {@code moved}: no action, the moves' forecast carried on. */
    private static Plan held(Plan moved) {
        return Plan.empty("libra", moved.predicted(), PlanStatus.BALANCED, "held back")
                .withForecast(moved.forecast(), moved.estimation());
    }

    @Test
    void keepsTheLastWindowsOldestFirst() {
        for (int m = 0; m < 4; m++) {
            memory.remember(at(m), null, 0, 3);
        }
        assertThat(memory.history(at(4), log::add)).extracting(ClusterSnapshot::capturedAt)
                .containsExactly(at(1).capturedAt(), at(2).capturedAt(), at(3).capturedAt());
        assertThat(log).isEmpty();
    }

    @Test
    void aWindowThatDoesNotBelongIsDroppedWithOneLineAndNotThrown() {
        memory.remember(at(0), null, 0, 3);
        memory.remember(at(5), null, 0, 3);
        // the clock went back: the window of minute 5 is after the current one of minute 3
        assertThat(memory.history(at(3), log::add)).extracting(ClusterSnapshot::capturedAt)
                .containsExactly(at(0).capturedAt());
        assertThat(log).singleElement().asString().contains("dropped").contains("capturedAt");
        assertThat(memory.history(at(3), log::add)).hasSize(1);
        assertThat(log).hasSize(1);
        assertThat(memory.windows()).isEqualTo(1);
    }

    @Test
    void thePreviousPlanIsCheckedOnlyWhenEveryMoveShowsAtItsDestination() {
        Plan plan = moveR0();
        memory.remember(at(0), plan, 0, 3);
        assertThat(memory.toCheck(r0MovedAt(1), log::add))
                .containsSame(plan);
        assertThat(log).isEmpty();
        assertThat(memory.toCheck(at(1), log::add)).isEmpty();
        assertThat(log).singleElement().asString().contains("not checked")
                .contains("r-0 is on rs-1, not on its destination rs-3");
    }

    @Test
    void aRunHeldBackKeepsTheLastMovesForecastToCheckAndARunThatMovedNothingElseDropsIt() {
        Plan plan = moveR0();
        memory.remember(at(0), plan, 0, 3);
        Plan held = held(plan);
        memory.heldBack(r0MovedAt(1), held, 3);
        assertThat(memory.toCheck(r0MovedAt(2), log::add)).as("the held plan, carrying the moves' forecast")
                .containsSame(held);
        assertThat(memory.windows()).isEqualTo(2);
        memory.remember(r0MovedAt(2), null, 0, 3);
        assertThat(memory.toCheck(r0MovedAt(3), log::add)).isEmpty();
        memory.remember(at(3), plan, 0, 3);
        memory.heldBack(at(4), held, 0);
        assertThat(memory.toCheck(r0MovedAt(5), log::add)).isEmpty();
        assertThat(memory.windows()).isZero();
    }

    @Test
    void aRunThatRequestedSplitsIsStillCheckedOnNodeTotals() {
        Plan plan = moveR0();
        memory.remember(at(0), plan, 2, 3);
        assertThat(memory.toCheck(r0MovedAt(1), log::add))
                .containsSame(plan);
        assertThat(log).singleElement().asString().contains("checked on node totals").contains("2 split(s)");
    }

    @Test
    void aMovedRegionSplitSinceCountsByItsDaughters() {
        Plan plan = moveR0();
        memory.remember(at(0), plan, 0, 3);
        // r-0 is [ , 08): split at 04 into r-0a and r-0b
        assertThat(memory.toCheck(splitR0("rs-3", "rs-3"), log::add)).containsSame(plan);
        assertThat(log).isEmpty();
        assertThat(memory.toCheck(splitR0("rs-3", "rs-2"), log::add)).isEmpty();
        assertThat(log).singleElement().asString().contains("r-0 is on several servers (its daughters on [rs-2, rs-3])");
        log.clear();
        assertThat(memory.toCheck(splitR0("rs-1", "rs-1"), log::add)).isEmpty();
        assertThat(log).singleElement().asString().contains("r-0 is on rs-1, not on its destination rs-3");
    }

    @Test
    void aMovedRegionGoneWithoutDaughtersLeavesNothingToCheck() {
        memory.remember(null, moveR0(), 0, 3);
        assertThat(memory.toCheck(splitR0("rs-3", "rs-3"), log::add)).as("no window tells r-0's range").isEmpty();
        assertThat(log).singleElement().asString().contains("r-0 is on no server");
    }

    /** The cluster a minute later with r-0 split at key 04, its daughters on {@code left} and {@code right}. */
    private ClusterSnapshot splitR0(String left, String right) {
        List<Region> regions = new ArrayList<>();
        for (Region r : base.regions()) {
            if (r.id().equals("r-0")) {
                regions.add(new Region("r-0a", r.table(), r.range().left("04"), left, r.sizeBytes() / 2, r.counters()));
                regions.add(new Region("r-0b", r.table(), r.range().right("04"), right, r.sizeBytes() / 2, r.counters()));
            } else {
                regions.add(r);
            }
        }
        return Skewed.after(base.withState(base.nodes(), regions), Map.of(), Skewed.AT.plusSeconds(60));
    }

    @Test
    void aRunThatMovedNothingLeavesNothingToCheck() {
        memory.remember(at(0), moveR0(), 0, 3);
        Plan p = moveR0();
        memory.remember(at(1), new Plan(p.strategy(), List.of(), p.before(), p.before(), p.status(), "", p.forecast(),
                p.estimation()), 0, 3);
        assertThat(memory.toCheck(r0MovedAt(2), log::add))
                .isEmpty();
        assertThat(log).isEmpty();
        memory.remember(null, moveR0(), 0, 3);
        assertThat(memory.windows()).as("a window with nothing to learn from is not kept").isEqualTo(2);
    }

    @Test
    void movesThatClaimToFixNothingLeaveNothingToCheck() {
        Plan p = moveR0();
        memory.remember(at(0), new Plan(p.strategy(), p.actions(), p.before(), p.before(), p.status(), "", p.forecast(),
                p.estimation()), 0, 3);
        assertThat(memory.toCheck(r0MovedAt(1), log::add))
                .as("region-count moves, say").isEmpty();
        assertThat(log).isEmpty();
        memory.remember(at(1), moveR0(), 0, 3);
        assertThat(moveR0().before().imbalanceDegree() - moveR0().predicted().imbalanceDegree())
                .isGreaterThan(PlanMemory.NOTHING);
        assertThat(memory.toCheck(r0MovedAt(2), log::add))
                .isPresent();
    }

    /**
     * A revert is checked on the forecast it carries, whatever its own moves claim: it is remembered
     * with the moves it took back, so the next runs do not send those regions there again.
     */
    @Test
    void aRevertThatClaimsNothingIsStillRememberedWithTheMovesItTookBack() {
        Plan p = moveR0();
        MoveAction sent = (MoveAction) p.actions().get(0);
        io.libra.core.plan.Reason revert = new io.libra.core.plan.Reason(io.libra.core.model.Dimension.CPU,
                List.of(io.libra.core.plan.Constraint.REVERT), null, null, "taking them back");
        // r-0 comes back from rs-3 to rs-1; the revert's own moves claim no gain
        Plan back = new Plan(p.strategy(), List.of(new MoveAction("r-0", "rs-3", "rs-1", 0, revert)), p.before(), p.before(),
                p.status(), "", p.forecast(), p.estimation(), List.of(sent));
        assertThat(back.isRevert()).isTrue();
        memory.remember(r0MovedAt(0), back, 0, 3);
        assertThat(memory.toCheck(at(1), log::add)).get().extracting(Plan::takenBack).isEqualTo(List.of(sent));
    }

    @Test
    void zeroWindowsForgetsEverything() {
        memory.remember(at(0), moveR0(), 0, 3);
        memory.remember(at(1), moveR0(), 0, 0);
        assertThat(memory.history(at(2), log::add)).isEmpty();
        assertThat(memory.toCheck(r0MovedAt(0), log::add)).isEmpty();
        assertThat(log).isEmpty();
    }

    @Test
    void groupsWithAServerGoneAreForgotten() {
        GroupState.Groups groups = new GroupState.Groups();
        ServerName a = ServerName.valueOf("a", 16020, 1L);
        ServerName b = ServerName.valueOf("b", 16020, 1L);
        ServerName c = ServerName.valueOf("c", 16020, 1L);
        GroupState ab = groups.of(Set.of(a, b));
        groups.of(Set.of(c));
        assertThat(groups.retainLive(Set.of(a, b, ServerName.valueOf("c", 16020, 2L))))
                .containsExactly(Set.of(c.getServerName()));
        assertThat(groups.size()).isEqualTo(1);
        assertThat(groups.of(Set.of(b, a))).isSameAs(ab);
    }

    @Test
    void theEstimationLineSaysModelWindowsErrorsAndWhetherConservative() {
        Plan plan = Planner.builder().build().plan(base).plan();
        assertThat(EstimationLine.of(plan.estimation(), java.util.Optional.empty(), false))
                .startsWith("estimation: model " + plan.estimation().model() + ", 1 window(s), fit error ")
                .endsWith("last forecast not checked, not conservative");
        var check = new io.libra.core.estimate.PredictionCheck(0.25, io.libra.core.model.Dimension.DISK, 0.1, true);
        assertThat(EstimationLine.of(plan.estimation(), java.util.Optional.of(check), false))
                .contains("last forecast error 25.0% (disk; it claimed to fix 10.0%), conservative");
        assertThat(EstimationLine.of(plan.estimation(), java.util.Optional.of(check), true))
                .endsWith("last forecast error 25.0% (disk; it claimed to fix 10.0%), a measured step out of a hold");
        var moved = new io.libra.core.estimate.PredictionCheck(0.25, io.libra.core.model.Dimension.DISK, 0.1, false, false,
                java.util.List.of(), new io.libra.core.estimate.WorkloadShift(0.2, 0.05));
        assertThat(EstimationLine.of(plan.estimation(), java.util.Optional.of(moved), false))
                .endsWith("not held against the model: the workload itself moved by 20.0%");
        var weighed = plan.estimation().withFlowError(new io.libra.core.plan.FlowError(0.08, 0.3));
        assertThat(EstimationLine.of(weighed, java.util.Optional.empty(), false))
                .contains(", flow error 0.080 per unit of load moved through a server, last forecast not checked");
        assertThat(EstimationLine.of(plan.estimation(), java.util.Optional.empty(), false)).doesNotContain("flow error");
    }

    /**
     * What the last estimate found servers carry of their own outlives runs that moved nothing
     * (whose plan is not kept to check), so the next run's estimate keeps it where its windows
     * cannot show it again; a balancer told to keep no history forgets it.
     */
    /** The flow error the last plan was made with outlives runs that moved nothing, as the servers' own loads do. */
    @Test
    void theFlowErrorOutlivesRunsThatMovedNothing() {
        io.libra.core.plan.FlowError learnt = new io.libra.core.plan.FlowError(0.06, 0.3);
        memory.estimated(new Estimation("learnt", 3, 0.02, 0.01, "", List.of(), learnt));
        memory.remember(at(0), null, 0, 3);
        memory.heldBack(at(1), held(moveR0()), 3);
        assertThat(memory.toCheck(at(2), log::add)).as("no moves' forecast to carry on").isEmpty();

        assertThat(memory.flowError()).isEqualTo(learnt);
        assertThat(memory.state().flowError()).isEqualTo(learnt);
        memory.remember(at(2), null, 0, 0);
        assertThat(memory.flowError()).as("a balancer told to keep no history forgets it").isNull();
    }

    @Test
    void theLoadServersCarryOfTheirOwnOutlivesRunsThatMovedNothing() {
        List<OwnLoad> own = List.of(new OwnLoad("rs-2", OwnLoad.Kind.SPEED, null));
        memory.estimated(new Estimation("learnt", 3, 0.02, 0.01, "", own));
        memory.remember(at(0), null, 0, 3);
        memory.remember(at(1), null, 0, 3);

        assertThat(memory.ownLoad()).isEqualTo(own);

        memory.remember(at(2), null, 0, 0);
        assertThat(memory.ownLoad()).isEmpty();
    }
}
