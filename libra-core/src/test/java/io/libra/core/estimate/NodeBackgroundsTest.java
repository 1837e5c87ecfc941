package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.plan.OwnLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeBackgroundsTest {
    private static final double EXTRA = 0.5;
    private final Estimator estimator = new Estimator(EstimationConfig.DEFAULT);
    private final SyntheticCluster cluster = new SyntheticCluster(8, 160, 11);

    private ClusterSnapshot window(int index) {
        return cluster.window(index, 11, SyntheticCluster::byteCpu, SyntheticCluster::cachedDisk, 0.2, 0.005);
    }

    /** The window with {@code extra} more busy cores on {@code node}. */
    private static ClusterSnapshot withCpu(ClusterSnapshot w, String node, double extra) {
        List<Node> nodes = new ArrayList<>();
        for (Node n : w.nodes()) {
            nodes.add(n.id().equals(node) ? new Node(n.id(), n.cpuCores(), n.cpuUsage() + extra, n.diskBytesPerSec()) : n);
        }
        return w.withState(nodes, w.regions());
    }

    /** The window with {@code node}'s measured CPU times {@code factor}. */
    private static ClusterSnapshot withCpuTimes(ClusterSnapshot w, String node, double factor) {
        List<Node> nodes = new ArrayList<>();
        for (Node n : w.nodes()) {
            nodes.add(n.id().equals(node) ? new Node(n.id(), n.cpuCores(), n.cpuUsage() * factor, n.diskBytesPerSec()) : n);
        }
        return w.withState(nodes, w.regions());
    }

    /**
     * The window with each region's disk measured (as the HBase reporter supplies it), so that no
     * block cache rivals the disk model: that rival would go first.
     */
    private static ClusterSnapshot withDiskMeasured(ClusterSnapshot w) {
        List<Region> regions = new ArrayList<>();
        for (Region r : w.regions()) {
            regions.add(new Region(r.id(), r.table(), r.range(), r.node(), r.sizeBytes(), r.counters(), r.histogram(),
                    r.rangeId(), new MeasuredLoad(Double.NaN, SyntheticCluster.cachedDisk(r.counters()))));
        }
        return w.withState(w.nodes(), regions);
    }

    /** Where region {@code id} sits in window {@code w}. */
    private static String nodeOf(ClusterSnapshot w, String id) {
        return w.regions().stream().filter(r -> r.id().equals(id)).map(Region::node).findFirst().orElseThrow();
    }

    private static int index(ClusterSnapshot w, String node) {
        for (int j = 0; j < w.nodes().size(); j++) {
            if (w.nodes().get(j).id().equals(node)) {
                return j;
            }
        }
        throw new IllegalArgumentException(node);
    }

    /**
     * Half a core of work on n3 that no region explains, in two windows between which every node's
     * regions changed: it is n3's own, so n3 keeps it as base load when its regions move.
     */
    @Test
    void workANodeKeepsWhenItsRegionsChangeIsItsOwn() {
        ClusterSnapshot before = withCpu(window(0), "n3", EXTRA);
        ClusterSnapshot now = withCpu(window(1), "n3", EXTRA);

        Estimator.Estimate e = estimator.estimate(now, List.of(before));

        assertThat(e.cpuOwn().offsets()).as(e.estimation().detail()).containsKey("n3");
        assertThat(e.estimation().detail()).contains("a background of its own on");
        double others = 0;
        for (int j = 0; j < now.nodes().size(); j++) {
            others += j == index(now, "n3") ? 0 : e.model().base(j, Dimension.CPU) / (now.nodes().size() - 1);
        }
        assertThat(e.model().base(index(now, "n3"), Dimension.CPU) - others).isCloseTo(EXTRA, within(0.1));
    }

    /** The estimate on four windows in which n3 measures {@code slower} times its CPU. */
    private Estimator.Estimate slowerN3(double slower) {
        List<ClusterSnapshot> before = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            before.add(withCpuTimes(window(w), "n3", slower));
        }
        return estimator.estimate(withCpuTimes(window(3), "n3", slower), before);
    }

    /**
     * n3 runs all its work 1.6 times slower than the others, in four windows between which every
     * node's regions changed: its residual grew with its regions' load, so it is a speed of n3's
     * own, not an offset, and a region moved off n3 is forecast to cost what it costs elsewhere.
     */
    @Test
    void aNodeWhoseTotalScalesWithItsRegionsRunsAtASpeedOfItsOwn() {
        double slower = 1.6;
        ClusterSnapshot now = withCpuTimes(window(3), "n3", slower);

        Estimator.Estimate e = slowerN3(slower);

        assertThat(e.cpuOwn().offsets()).as(e.estimation().detail()).doesNotContainKey("n3");
        assertThat(e.cpuOwn().speed("n3")).as(e.estimation().detail()).isCloseTo(slower, within(0.25));
        assertThat(e.estimation().detail()).contains("a speed of its own on");
        RegionLoad onN3 = e.model().regions().stream().filter(r -> r.node().equals("n3")).findFirst().orElseThrow();
        int elsewhere = index(now, "n0");
        assertThat(e.model().cpuOn(onN3, elsewhere))
                .isCloseTo(onN3.cpu() * e.cpuOwn().speed("n0") / e.cpuOwn().speed("n3"), within(1e-12))
                .isLessThan(onN3.cpu() / 1.3);
    }

    /** The window with {@code node}'s measured disk times {@code factor}. */
    private static ClusterSnapshot withDiskTimes(ClusterSnapshot w, String node, double factor) {
        List<Node> nodes = new ArrayList<>();
        for (Node n : w.nodes()) {
            nodes.add(n.id().equals(node) ? new Node(n.id(), n.cpuCores(), n.cpuUsage(), n.diskBytesPerSec() * factor) : n);
        }
        return w.withState(nodes, w.regions());
    }

    /**
     * The same in disk: n3's device costs 1.6 times the others' for the same requests (another
     * device class, as in libra-virtual-iops.txt), in four windows between which every node's
     * regions changed. It is a disk speed of n3's own, and a region leaving n3 is forecast to cost
     * what the other node's speed says there.
     */
    @Test
    void aNodeWhoseDiskScalesWithItsRegionsRunsAtADiskSpeedOfItsOwn() {
        double slower = 1.6;
        List<ClusterSnapshot> before = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            before.add(withDiskTimes(window(w), "n3", slower));
        }
        ClusterSnapshot now = withDiskTimes(window(3), "n3", slower);

        Estimator.Estimate e = estimator.estimate(now, before);

        assertThat(e.cache()).as(e.estimation().detail()).isEmpty();
        assertThat(e.diskOwn().speed("n3")).as(e.estimation().detail()).isCloseTo(slower, within(0.25));
        assertThat(e.estimation().ownLoad()).anyMatch(o -> o.id().equals("n3") && o.disk() == OwnLoad.Kind.SPEED);
        RegionLoad onN3 = e.model().regions().stream().filter(r -> r.node().equals("n3")).findFirst().orElseThrow();
        int elsewhere = index(now, "n0");
        assertThat(e.model().diskOn(onN3, elsewhere))
                .isCloseTo(onN3.disk() * e.diskOwn().speed("n0") / e.diskOwn().speed("n3"), within(1e-6))
                .isLessThan(onN3.disk() / 1.3);
    }

    /**
     * Three nodes of other disk classes (1.5, 0.7 and 1.35 times the others' cost for the same
     * requests), in four windows between which every node's regions changed. Fitted on the
     * measured totals alone, the weights bend to explain the speeds as region cost; fitted again with
     * the speeds found taken out, they predict held-out nodes closely, and every one of the three is
     * found at its speed.
     */
    @Test
    void weightsRefittedWithTheSpeedsTakenOutFindEveryNodesDiskSpeed() {
        Map<String, Double> speeds = Map.of("n1", 1.5, "n3", 0.7, "n5", 1.35);
        List<ClusterSnapshot> windows = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            ClusterSnapshot slowed = window(w);
            for (Map.Entry<String, Double> e : speeds.entrySet()) {
                slowed = withDiskTimes(slowed, e.getKey(), e.getValue());
            }
            windows.add(slowed);
        }

        Estimator.Estimate e = estimator.estimate(windows.get(3), windows.subList(0, 3));

        for (Map.Entry<String, Double> s : speeds.entrySet()) {
            assertThat(e.diskOwn().speed(s.getKey()) / e.diskOwn().speed("n0")).as(s.getKey() + ": "
                    + e.estimation().detail()).isCloseTo(s.getValue(), within(0.1));
        }
        // fitted on the measured totals alone, the weights' held-out error was 4.9%
        assertThat(e.disk().fitError()).as(e.estimation().detail()).isLessThan(0.02);
    }

    /**
     * The estimate's fitError is that of the model a plan uses: with n3's speed, which takes away most
     * of what the cost fit alone misses on n3. Reported without it, the error kept every later plan
     * conservative against a miss the model had already learnt (ycsb-d seed 23 under node-speed sat
     * at disk 1.146 for seven windows, every region failing a benefit of 13%). It is near the error
     * of the weights refitted with n3's speed taken out ({@code e.cpu()}), and under half of the
     * error the cost fit alone leaves (which is at least the reported one over errorLeft).
     */
    @Test
    void theFitErrorReportedIsThatOfTheModelWithTheNodesOwnLoads() {
        Estimator.Estimate e = slowerN3(1.6);

        assertThat(e.cpuOwn().speeds()).as(e.estimation().detail()).containsKey("n3");
        assertThat(e.cpuOwn().errorLeft()).isLessThan(0.5);
        assertThat(e.estimation().fitError()).isLessThan(2 * e.cpu().fitError());
    }

    /**
     * Half a core that goes with region r7 wherever it sits is the cost model's error about r7, not
     * any node's: the nodes that held it in either window take no background of their own.
     */
    @Test
    void workThatFollowsARegionIsNotANodesOwn() {
        ClusterSnapshot w0 = window(0);
        ClusterSnapshot w1 = window(1);
        String first = nodeOf(w0, "r7");
        String second = nodeOf(w1, "r7");
        assertThat(first).as("the synthetic placement moves r7").isNotEqualTo(second);
        ClusterSnapshot before = withCpu(w0, first, EXTRA);
        ClusterSnapshot now = withCpu(w1, second, EXTRA);

        Estimator.Estimate e = estimator.estimate(now, List.of(before));

        assertThat(e.cpuOwn().offsets()).as(e.estimation().detail()).doesNotContainKeys(first, second);
    }

    /**
     * n3 runs 1.6 times slower. Between the windows half its regions traded places with n5's, each
     * for one as busy, so neither node's predicted total changed. Had n3's extra time been those
     * regions', it would have gone to n5 with them; it stayed on n3, so it is n3's own.
     */
    @Test
    void aResidualThatStaysWhenRegionsTradePlacesIsTheNodes() {
        ClusterSnapshot before = withCpuTimes(window(0), "n3", 1.6);
        ClusterSnapshot now = traded(before, "n3", "n5");

        Estimator.Estimate e = estimator.estimate(now, List.of(before));

        assertThat(e.estimation().ownLoad()).as(e.estimation().detail()).extracting(OwnLoad::id).contains("n3");
        assertThat(e.estimation().detail()).contains("whose residual stayed when their regions changed");
    }

    /**
     * The same trade where the time went with the regions (n3's measured total fell by what left it
     * and n5's rose): the regions carried it, so n3 has nothing of its own.
     */
    @Test
    void aResidualThatGoesWithTradedRegionsIsTheirs() {
        ClusterSnapshot before = withCpuTimes(window(0), "n3", 1.6);
        ClusterSnapshot traded = traded(before, "n3", "n5");
        double moved = 0.6 * before.regions().stream().filter(r -> r.node().equals("n3")).count() / 2 * perRegion(before, "n3");
        ClusterSnapshot now = withCpu(withCpu(traded, "n3", -moved), "n5", moved);

        Estimator.Estimate e = estimator.estimate(now, List.of(before));

        assertThat(e.estimation().ownLoad()).as(e.estimation().detail()).extracting(OwnLoad::id).doesNotContain("n3", "n5");
    }

    /**
     * n0's totals are exactly what its regions cost, n1's half as much again; half their regions
     * trade places. Carried with n1's correction, the regions n0 took would have raised it by a
     * quarter, which n0's own "offset" of nothing predicts better; but it does not beat no offset
     * at all, so n0 has nothing of its own. n1 does: its residual stayed.
     */
    @Test
    void aNodeMustBeatNoOffsetAsWellAsTheCarriedResiduals() {
        CostFit fit = new CostFit(Dimension.CPU, true, new double[] {0, 1e-4, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 0, "");
        List<NodeSample> samples = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            double[] half = reads(5_000);
            samples.add(new NodeSample("n0", t, 1.0, 0, reads(10_000), reads(10_000),
                    t == 0 ? Arrivals.NONE : Arrivals.of(Map.of("n1", half))));
            samples.add(new NodeSample("n1", t, 1.5, 0, reads(10_000), reads(10_000),
                    t == 0 ? Arrivals.NONE : Arrivals.of(Map.of("n0", half))));
        }

        NodeBackgrounds own = NodeBackgrounds.of(Dimension.CPU, fit, samples, Map.of());

        assertThat(own.kinds()).as(own.detail()).containsOnlyKeys("n1");
    }

    /** Features of {@code n} small reads, with the background's slot at 1. */
    private static double[] reads(double n) {
        double[] x = new double[CostFeatures.count()];
        x[CostFeatures.BACKGROUND] = 1;
        x[1] = n;
        return x;
    }

    /** Node's measured CPU per region, at the node's speed. */
    private static double perRegion(ClusterSnapshot w, String node) {
        return w.nodes().get(index(w, node)).cpuUsage() / 1.6 / w.regions().stream().filter(r -> r.node().equals(node)).count();
    }

    /**
     * The next window: the first half of {@code a}'s regions and as many of {@code b}'s trade
     * nodes, each taking the other's counters, so every node's counters and measured totals stay.
     */
    private static ClusterSnapshot traded(ClusterSnapshot w, String a, String b) {
        List<Region> onA = w.regions().stream().filter(r -> r.node().equals(a)).toList();
        List<Region> onB = w.regions().stream().filter(r -> r.node().equals(b)).toList();
        int k = Math.min(onA.size(), onB.size()) / 2;
        Map<String, Region> swapped = new HashMap<>();
        for (int i = 0; i < k; i++) {
            swapped.put(onA.get(i).id(), withCounters(onA.get(i), b, onB.get(i)));
            swapped.put(onB.get(i).id(), withCounters(onB.get(i), a, onA.get(i)));
        }
        List<Region> regions = w.regions().stream().map(r -> swapped.getOrDefault(r.id(), r)).toList();
        return new ClusterSnapshot(w.store(), w.capturedAt().plusSeconds(60), w.windowSeconds(), w.nodes(), regions);
    }

    private static Region withCounters(Region r, String node, Region from) {
        return new Region(r.id(), r.table(), r.range(), node, r.sizeBytes(), from.counters());
    }

    /** One window cannot tell a node's own work from its regions': no node gets a background of its own. */
    @Test
    void oneWindowGivesNoNodeABackgroundOfItsOwn() {
        Estimator.Estimate e = estimator.estimate(withCpu(window(1), "n3", EXTRA), List.of());

        assertThat(e.cpuOwn()).isEqualTo(NodeBackgrounds.NONE);
        assertThat(e.diskOwn()).isEqualTo(NodeBackgrounds.NONE);
        assertThat(e.estimation().detail()).doesNotContain("of its own");
    }

    /**
     * One window cannot tell whether n3 measuring twice what its regions cost is its own speed or their cost:
     * the model in use shares it among n3's regions, and a rival prices work moved to n3 at a speed
     * of its own, so a plan can be made to hold under either.
     */
    @Test
    void aNodeStrayingInAWindowThatCannotTellGivesARivalWithASpeedOfItsOwn() {
        ClusterSnapshot now = withCpuTimes(withDiskMeasured(window(1)), "n3", 2);

        Estimator.Estimate e = estimator.estimate(now, List.of());

        int n3 = index(now, "n3");
        int n1 = index(now, "n1");
        assertThat(e.model().speedRatio(Dimension.CPU, n1, n3)).isEqualTo(1.0);
        assertThat(e.rival()).isPresent();
        assertThat(e.rival().get().model().speedRatio(Dimension.CPU, n1, n3)).isGreaterThan(1.6);
        assertThat(e.rival().get().describe()).startsWith("speed of its own on").contains("no window has shown to have one");
    }

    /** With learning off there is no fit whose residuals could be a node's: no rival either. */
    @Test
    void theMappingAloneHasNoSpeedRival() {
        Estimator.Estimate e = new Estimator(EstimationConfig.DEFAULT, false).estimate(withCpuTimes(window(1), "n3", 2),
                List.of());

        assertThat(e.rival()).isEmpty();
    }

    /** With learning off, the paper's mapping is kept as it is: no node gets a background of its own. */
    @Test
    void theMappingAloneKeepsNoBackgroundOfItsOwn() {
        ClusterSnapshot before = withCpu(window(0), "n3", EXTRA);
        ClusterSnapshot now = withCpu(window(1), "n3", EXTRA);

        Estimator.Estimate e = new Estimator(EstimationConfig.DEFAULT, false).estimate(now, List.of(before));

        assertThat(e.cpuOwn()).isEqualTo(NodeBackgrounds.NONE);
    }

    /**
     * n3 runs 1.6 times slower, found on windows since gone from the history: the windows left
     * cannot show it again (its regions have not changed since), so it keeps the speed the last
     * plan carries, valued on these windows, rather than having its regions replanned as if the
     * time were theirs. It takes nothing off the error the estimate reports: on windows alike it
     * repeats the residual it was valued on, which says nothing of how a move would land
     * (`byte-cpu` seed 8 under disk-speed: 14 nodes kept so, a reported 0.1% against the cost
     * fit's 1.3%, and a 52-move plan 10% off).
     */
    @Test
    void aSpeedFoundEarlierIsKeptWhileTheNodesRegionsStayPut() {
        ClusterSnapshot quiet = withCpuTimes(window(3), "n3", 1.6);
        List<OwnLoad> remembered = List.of(new OwnLoad("n3", OwnLoad.Kind.SPEED, null));

        Estimator.Estimate kept = estimator.estimate(quiet, List.of(quiet), remembered);
        Estimator.Estimate forgotten = estimator.estimate(quiet, List.of(quiet));

        assertThat(kept.cpuOwn().speed("n3")).as(kept.estimation().detail()).isGreaterThan(1.1);
        assertThat(kept.estimation().detail()).contains("kept on 1 whose regions have not changed");
        assertThat(kept.estimation().ownLoad()).containsExactly(new OwnLoad("n3", OwnLoad.Kind.SPEED, null));
        assertThat(kept.cpuOwn().errorLeft()).as("valued on windows that cannot tell, it takes no error away")
                .isEqualTo(1);
        assertThat(forgotten.cpuOwn().speeds()).doesNotContainKey("n3");
        assertThat(forgotten.estimation().ownLoad()).isEmpty();
    }

    /**
     * What was remembered of n3 (a background of its own) is what its windows overrule when they
     * can tell: its regions changed and its total kept 1.6 times what they cost, a speed of its own.
     */
    @Test
    void windowsThatCanTellOverruleWhatWasRemembered() {
        List<ClusterSnapshot> before = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            before.add(withCpuTimes(window(w), "n3", 1.6));
        }
        List<OwnLoad> remembered = List.of(new OwnLoad("n3", OwnLoad.Kind.BACKGROUND, null));

        Estimator.Estimate e = estimator.estimate(withCpuTimes(window(3), "n3", 1.6), before, remembered);

        assertThat(e.cpuOwn().offsets()).as(e.estimation().detail()).doesNotContainKey("n3");
        assertThat(e.cpuOwn().speed("n3")).isCloseTo(1.6, within(0.25));
        assertThat(e.estimation().detail()).doesNotContain("kept on");
    }

    /** Halfway between two readings, an untold speed is its square root; a speed a window showed stays whole. */
    @Test
    void halfwayTakesTheSquareRootOfTheUntoldSpeedsOnly() {
        NodeBackgrounds chosen = new NodeBackgrounds(Map.of("n1", 5.0), Map.of("n2", 1.5), "", 1);
        NodeBackgrounds rival = new NodeBackgrounds(Map.of("n1", 5.0), Map.of("n2", 1.5, "n3", 1.44, "n4", 0.64), "", 1);

        NodeBackgrounds half = rival.halfway(chosen);

        assertThat(half.speed("n2")).isEqualTo(1.5);
        assertThat(half.speed("n3")).isCloseTo(1.2, within(1e-12));
        assertThat(half.speed("n4")).isCloseTo(0.8, within(1e-12));
        assertThat(half.of("n1")).isEqualTo(5.0);
    }
}
