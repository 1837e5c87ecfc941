package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.estimate.CacheModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.PlacementRule;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Plans on a window that two models explain equally well: a linear disk model and a block cache, or CPU residuals that ride with the regions and a speed of a node's own. */
class RivalModelsTest {

    /**
     * On `cache-skew` the linear model wins the window by a hair, and its own plan forecast 1.05 but
     * left disk at 1.18-1.28 on these seeds; the plan kept is the one that holds under both models.
     */
    @ParameterizedTest(name = "cache-skew seed {0}")
    @CsvSource({"5", "9", "11"})
    void thePlanKeptHoldsUnderBothModels(long seed) {
        ClosedLoop loop = new ClosedLoop(Scenario.byName("cache-skew"), seed, Planner.builder().build());
        loop.round();
        Plan first = loop.lastPlan();
        Score truth = loop.score();
        System.out.printf("cache-skew seed %d: %s; true %.3f/%.3f%n", seed, first.detail(), truth.cpuMaxOverMean(),
                truth.diskMaxOverMean());
        assertThat(first.detail()).contains("the window does not tell the linear disk model from a block cache learnt")
                .contains("kept the plan made on the block cache");
        assertThat(truth.diskMaxOverMean()).isLessThanOrEqualTo(1.10);
        assertThat(truth.cpuMaxOverMean()).isLessThanOrEqualTo(1.10);
    }

    /**
     * On `hotspot-shift` the block cache's held-out error in the first window is clearly above the
     * linear model's, though within twice it, and no node's speed is in question: the cache is the
     * rival. The linear model's own plan left disk at 1.102 and 1.105 of its mean on these seeds.
     */
    @ParameterizedTest(name = "hotspot-shift seed {0}")
    @CsvSource({"8", "9"})
    void aCacheUpToTwiceAsFarOffRivalsWhereNoSpeedDoes(long seed) {
        ClosedLoop loop = new ClosedLoop(Scenario.byName("hotspot-shift"), seed, Planner.builder().build());
        loop.round();
        Plan first = loop.lastPlan();
        Score truth = loop.score();

        assertThat(first.detail()).contains("the window does not tell the linear disk model from a block cache learnt");
        assertThat(truth.diskMaxOverMean()).as(first.detail()).isLessThanOrEqualTo(1.10);
        assertThat(truth.cpuMaxOverMean()).as(first.detail()).isLessThanOrEqualTo(1.10);
    }

    /**
     * On `heterogeneous` (seed 10) one window of six nodes of three sizes held out a background the
     * same on each node better than one in proportion to capacity, in both dimensions. On that
     * model the smallest nodes carry as much background as the largest, and the plan made on it
     * forecast disk 1.45 and left it at 1.38 of its mean; the second window chose backgrounds by
     * capacity. With that shape as the rival, the plan kept is the one made on it.
     */
    @Test
    void aBackgroundShapeOneWindowChoseIsCheckedAgainstTheOther() {
        ClosedLoop loop = new ClosedLoop(Scenario.byName("heterogeneous"), 10, Planner.builder().build());
        loop.round();
        Plan first = loop.lastPlan();
        Score truth = loop.score();

        assertThat(first.detail()).contains("the window does not tell the background the same on each node from a"
                + " background in proportion to each node's capacity; kept the plan made on the background by capacity");
        assertThat(truth.diskMaxOverMean()).as(first.detail()).isLessThan(1.15);
        assertThat(truth.cpuMaxOverMean()).as(first.detail()).isLessThanOrEqualTo(1.10);
    }

    /**
     * Under `node-speed` (byte-cpu, seed 16) a node's CPU strays from the cost model in windows that
     * never tested whether it stays with it. Planned as if residuals rode with the regions, a plan
     * forecast Δ 0.05 and measured 0.20: a node 1.37 times slower than its pool took 47 regions.
     * The first plan sees the rival (two nodes that stray), keeps the plan that falls least behind
     * under either model, and the cluster is within 1.10 after the third round (the fourth, before
     * the weights were refitted with the speeds found taken out: the rival came in the third plan).
     */
    @Test
    void aPlanHoldsUnderASpeedNoWindowHasTested() {
        ClosedLoop loop = underNodeSpeed("byte-cpu", 16);
        loop.round();
        Plan first = loop.lastPlan();
        loop.round();
        loop.round();
        Score truth = loop.score();

        assertThat(first.detail()).contains("the window does not tell the CPU residuals riding with the regions from a"
                + " speed of its own on");
        double[] behind = behind(first);
        assertThat(behind[0]).as(first.detail()).isLessThanOrEqualTo(behind[1]);
        assertThat(truth.cpuMaxOverMean()).isLessThanOrEqualTo(1.10);
        assertThat(truth.diskMaxOverMean()).isLessThanOrEqualTo(1.10);
    }

    /**
     * Under `node-speed` (hotspot-shift, seed 8) seven nodes' CPU strays from the cost model in the
     * first window. The plan made as if the residuals rode with the regions, and the one made as if
     * they were the nodes' speeds, each fall far behind under the other reading (the plan kept of the
     * two left true CPU at 1.23); the plan made halfway between falls least behind under either, and
     * the cluster is within 1.10 after it.
     */
    @Test
    void aPlanHalfwayBetweenTwoReadingsHoldsWhereNeitherDoes() {
        ClosedLoop loop = underNodeSpeed("hotspot-shift", 8);
        loop.round();
        Plan first = loop.lastPlan();
        Score truth = loop.score();

        assertThat(first.detail()).contains("kept the plan made on the model halfway between the two");
        double[] behind = behind(first);
        assertThat(behind[0]).as(first.detail()).isLessThan(behind[1]);
        assertThat(truth.cpuMaxOverMean()).isLessThanOrEqualTo(1.10);
        assertThat(truth.diskMaxOverMean()).isLessThanOrEqualTo(1.10);
    }

    /**
     * Under `disk-speed` (ycsb-d, seed 4) seven nodes' disk strays from the cost model in the first
     * window. The rival reads it as the nodes' speeds, so its plan is made knowing those nodes carry
     * load of their own: it relieves them by own-load relief, where every region on them weighs
     * about as much in CPU. Planned as if no node had any (the model in use found none), the rival's
     * plan was stuck, the plan kept changed nothing for it, and true disk stayed at 1.50 of its mean.
     */
    @Test
    void aPlanOnTheNodeSpeedsRelievesTheNodesItFindsSlow() {
        FirstPlan run = FirstPlan.underDiskSpeed("ycsb-d", 4);
        Plan first = run.plan();

        assertThat(first.detail()).contains("a speed of its own on 7 nodes").contains("kept the plan made on the node speeds");
        assertThat(first.actions()).as(first.detail())
                .anySatisfy(a -> assertThat(a.reason().passed()).contains(Constraint.OWN_LOAD_RELIEF));
        assertThat(run.diskAfter()).isLessThan(run.diskBefore() - 0.1);
    }

    /**
     * Under `disk-speed` (calm, seed 10) the regions all lean alike, so a constant per node predicts
     * the disk totals as well as the linear model (20.6% held-out error), and a block cache as well
     * as both: it says any move spoils the caches (disk Δ 0.87 after the linear model's plan). As a
     * rival it held every plan back for three windows. Without support in the window it rivals
     * nothing; the nodes' speeds do, and the first plan relieves the slow disks.
     */
    @Test
    void aBlockCacheNoBetterThanAConstantPerNodeRivalsNothing() {
        FirstPlan run = FirstPlan.underDiskSpeed("calm", 10);
        Plan first = run.plan();

        assertThat(first.estimation().detail()).contains("node totals too alike to tell what regions cost");
        assertThat(first.detail()).doesNotContain("block cache").contains("a speed of its own on");
        assertThat(first.actions()).isNotEmpty();
        assertThat(run.diskAfter()).isLessThan(run.diskBefore() - 0.1);
    }

    private static ClosedLoop underNodeSpeed(String scenario, long seed) {
        return new ClosedLoop(Scenario.byName(scenario), seed, Planner.builder().build(), CostModel.Form.NODE_SPEED);
    }

    /** The first plan of a run under `disk-speed`, and the true disk Max/Mean before and after it. */
    private record FirstPlan(Plan plan, double diskBefore, double diskAfter) {
        static FirstPlan underDiskSpeed(String scenario, long seed) {
            ClosedLoop loop = new ClosedLoop(Scenario.byName(scenario), seed, Planner.builder().build(),
                    CostModel.Form.DISK_SPEED);
            double before = loop.score().diskMaxOverMean();
            loop.round();
            return new FirstPlan(loop.lastPlan(), before, loop.score().diskMaxOverMean());
        }
    }

    /** How far the plan kept falls behind the better plan under either model, and the next best plan. */
    private static double[] behind(Plan p) {
        Matcher m = Pattern.compile("at most (\\d+\\.\\d+) behind the better plan under either \\(the other"
                + " (\\d+\\.\\d+)\\)").matcher(p.detail());
        assertThat(m.find()).as(p.detail()).isTrue();
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    }

    /**
     * The store's rule follows the moves a plan commits (HBase's replica rule does), so the rival's
     * plan is asked of a copy at the window's layout: judged with the first plan's regions where that
     * plan put them, it could be refused a server a replica only seemed to be on, or allowed one it is on.
     */
    @Test
    void theRivalsPlanIsAskedOfAPlacementRuleAtTheWindowsLayout() {
        Planner planner = Planner.builder().build();
        ClusterSnapshot first = new ClosedLoop(Scenario.byName("cache-skew"), 5, planner).measure();
        List<Following> rules = new ArrayList<>();

        Plan p = planner.plan(PlanRequest.of(first), m -> m, new Following(rules)).plan();

        assertThat(p.detail()).contains("the window does not tell the linear disk model from a block cache");
        assertThat(rules).as("one rule per plan").hasSizeGreaterThanOrEqualTo(2);
        assertThat(rules).allSatisfy(r -> assertThat(r.seenWhenFirstAsked).as("moves it had seen when first asked")
                .isIn(0, -1));
        assertThat(rules.get(0).moves).isPositive();
        assertThat(rules.get(1).moves).isPositive();
    }

    /** A rule that counts the moves committed to it and, when first asked, how many it had seen. */
    private static final class Following implements PlacementRule {
        private final List<Following> all;
        private int moves;
        private int seenWhenFirstAsked = -1;

        Following(List<Following> all) {
            this.all = all;
            all.add(this);
        }

        @Override
        public String refuseMove(String region, String node) {
            seenWhenFirstAsked = seenWhenFirstAsked < 0 ? moves : seenWhenFirstAsked;
            return null;
        }

        @Override
        public void moved(String region, String node) {
            moves++;
        }

        @Override
        public PlacementRule fresh() {
            return new Following(all);
        }
    }

    /** A rival is a cache that predicts about as well as the linear model without beating it by the margin. */
    @Test
    void aRivalPredictsAboutAsWellWithoutBeatingTheLinearModel() {
        assertThat(cache(0.050, 0.055).rivalsLinear()).as("a little better").isTrue();
        assertThat(cache(0.050, 0.055).beatsLinear()).isFalse();
        assertThat(cache(0.060, 0.055).rivalsLinear()).as("a little worse").isTrue();
        assertThat(cache(0.040, 0.055).rivalsLinear()).as("beats it: replaces it").isFalse();
        assertThat(cache(0.040, 0.055).beatsLinear()).isTrue();
        assertThat(cache(0.070, 0.055).rivalsLinear()).as("clearly worse").isFalse();
    }

    /** A cache clearly worse than the linear model is still a later rival, up to twice its error. */
    @Test
    void aCacheUpToTwiceTheLinearModelsErrorIsNearIt() {
        assertThat(cache(0.037, 0.023).nearLinear()).as("ycsb-d seed 12's first window").isTrue();
        assertThat(cache(0.110, 0.055).nearLinear()).as("twice").isTrue();
        assertThat(cache(0.111, 0.055).nearLinear()).as("more than twice").isFalse();
        assertThat(cache(0.040, 0.055).nearLinear()).as("beats it: replaces it").isFalse();
    }

    private static CacheModel cache(double fitError, double linearError) {
        return new CacheModel(4096, 0.99, 0.5, 1e9, new double[] {0, 1, 1}, fitError, linearError);
    }
}
