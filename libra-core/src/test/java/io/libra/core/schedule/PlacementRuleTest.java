package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.PlanRequest;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store's placement rule: refused destinations are skipped for the next-best, refused splits not made. */
class PlacementRuleTest {
    private static final String[] STRATEGIES = {"libra", "2d-iso", "1d-cpu", "1d-io", "2d-wtd"};

    /** Refuses every move to one node and every split, and records the moves the scheduler commits. */
    private static final class Refusing implements PlacementRule {
        final String refused;
        final List<String> moved = new ArrayList<>();

        Refusing(String refused) {
            this.refused = refused;
        }

        @Override
        public String refuseMove(String region, String node) {
            return node.equals(refused) ? node + " refused" : null;
        }

        @Override
        public String refuseSplit(String region) {
            return "no splits";
        }

        @Override
        public void moved(String region, String node) {
            moved.add(region + "->" + node);
        }
    }

    private static PlanResult plan(String strategy, ClusterSnapshot s, PlacementRule rule) {
        return Planner.builder().strategy(strategy).build().plan(PlanRequest.of(s), m -> m, rule);
    }

    @Test
    void everyStrategyKeepsToTheRuleAndStillBalances() {
        ClusterSnapshot s = Clusters.dualImbalanced(8, 32, 1);
        for (String strategy : STRATEGIES) {
            String favourite = plan(strategy, s, PlacementRule.ANY).plan().actions().stream()
                    .filter(a -> a instanceof MoveAction).map(a -> ((MoveAction) a).to()).findFirst().orElseThrow();
            PlanResult r = plan(strategy, s, new Refusing(favourite));
            assertThat(r.plan().actions()).as(strategy).isNotEmpty()
                    .noneMatch(a -> a instanceof MoveAction m && m.to().equals(favourite))
                    .noneMatch(a -> a instanceof SplitAction);
            var before = r.before().balance();
            var after = r.predicted().balance();
            assertThat(Math.min(after.cpuMaxOverMean() - before.cpuMaxOverMean(),
                    after.diskMaxOverMean() - before.diskMaxOverMean())).as(strategy + " lowers what it balances")
                    .isNegative();
        }
    }

    @Test
    void everyPlannedDestinationWasOneTheRuleSawCommitted() {
        Refusing rule = new Refusing("n1");
        PlanResult r = plan("libra", Clusters.dualImbalanced(8, 32, 1), rule);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        // merged hops and the max-actions cap leave fewer actions than committed moves
        for (Action a : r.plan().actions()) {
            MoveAction m = (MoveAction) a;
            assertThat(rule.moved).contains(m.region() + "->" + m.to());
        }
        assertThat(rule.moved.size()).isGreaterThanOrEqualTo(r.plan().actions().size());
    }

    @Test
    void aRegionThatMayNotSplitIsNotSplit() {
        ClusterSnapshot s = Clusters.snapshot(2, List.of(Clusters.region(0, "n0", 400, 0, 400, 0),
                Clusters.region(1, "n0", 400, 0, 400, 0), Clusters.region(2, "n1", 100, 0, 100, 0)));
        assertThat(plan("libra", s, PlacementRule.ANY).plan().count("split")).isPositive();
        PlanResult r = plan("libra", s, new PlacementRule() {
            @Override
            public String refuseSplit(String region) {
                return "pinned";
            }
        });
        assertThat(r.plan().count("split")).isZero();
        assertThat(r.plan().actions()).isNotEmpty();
    }
}
