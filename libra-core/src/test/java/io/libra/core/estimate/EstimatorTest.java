package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.KeyRange;
import io.libra.core.model.MeasuredLoad;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.Estimation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

class EstimatorTest {
    private final Estimator estimator = new Estimator(EstimationConfig.DEFAULT);

    private static List<ClusterSnapshot> windows(SyntheticCluster c, int count, long seed, double noise) {
        List<ClusterSnapshot> out = new ArrayList<>();
        for (int w = 0; w < count; w++) {
            out.add(c.window(w, seed, SyntheticCluster::byteCpu, SyntheticCluster::cachedDisk, 0.2, noise));
        }
        return out;
    }

    private static Estimator.Estimate fit(Estimator e, List<ClusterSnapshot> ws) {
        return e.estimate(ws.get(ws.size() - 1), ws.subList(0, ws.size() - 1));
    }

    /** Relative error of a fit predicting each node's total in a window it never saw. */
    private static double unseenError(CostFit fit, ClusterSnapshot unseen, ToDoubleFunction<RegionCounters> truth) {
        CostFeatures features = new CostFeatures(4096);
        double err = 0;
        double total = 0;
        for (Node n : unseen.nodes()) {
            double[] x = new double[CostFeatures.count()];
            x[CostFeatures.BACKGROUND] = 1;
            unseen.regions().stream().filter(r -> r.node().equals(n.id())).forEach(r -> features.add(r.counters(), x));
            err += Math.abs(CostFit.dot(fit.weights(), x) - n.measured(fit.dimension()));
            total += n.measured(fit.dimension());
        }
        return err / total;
    }

    @Test
    void recoversAKnownCostFromNodeTotals() {
        SyntheticCluster c = new SyntheticCluster(16, 400, 1);
        List<ClusterSnapshot> ws = windows(c, 4, 1, 0);
        Estimator.Estimate e = fit(estimator, ws);

        assertThat(e.disk().learnt()).as(e.disk().detail()).isTrue();
        assertThat(e.cpu().learnt()).as(e.cpu().detail()).isTrue();
        ClusterSnapshot unseen = c.window(9, 1, SyntheticCluster::byteCpu, SyntheticCluster::cachedDisk, 0.2, 0);
        assertThat(unseenError(e.disk(), unseen, SyntheticCluster::cachedDisk)).isLessThan(0.02);
        assertThat(unseenError(e.cpu(), unseen, SyntheticCluster::byteCpu)).isLessThan(0.02);
        // large reads dominate the disk and cost 4 B per byte read: the fit must find that
        assertThat(e.disk().weights()[6]).as("disk bytes per large byte read").isBetween(3.6, 4.4);
        assertThat(e.estimation().model()).isEqualTo(Estimation.LEARNT);
        assertThat(e.estimation().windows()).isEqualTo(4);
        assertThat(e.estimation().fitError()).isLessThan(0.02);
    }

    /**
     * Quiet windows of a balanced cluster, every node measuring about the same CPU and no region
     * moving: a constant per node predicts them as well as any weights, so they cannot tell what a
     * region costs, and the learnt weights (whatever split between background and regions the pull
     * settled on) are not used. With no change between the windows, learning node by node cannot
     * tell either ({@link WithinNodeTest}).
     */
    @Test
    void nodeTotalsAllAlikeKeepTheMapping() {
        ClusterSnapshot first = windows(new SyntheticCluster(16, 400, 1), 1, 1, 0).get(0);
        double mean = first.nodes().stream().mapToDouble(Node::cpuUsage).average().orElseThrow();
        java.util.SplittableRandom noise = new java.util.SplittableRandom(7);
        List<ClusterSnapshot> ws = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            List<Node> nodes = first.nodes().stream()
                    .map(n -> new Node(n.id(), n.cpuCores(), mean * (1 + 0.01 * noise.nextDouble(-1, 1)), n.diskBytesPerSec()))
                    .toList();
            ws.add(new ClusterSnapshot(first.store(), first.capturedAt().plusSeconds(60L * t), first.windowSeconds(), nodes,
                    first.regions()));
        }

        Estimator.Estimate e = fit(estimator, ws);

        assertThat(e.cpu().learnt()).as(e.cpu().detail()).isFalse();
        assertThat(e.cpu().detail()).contains("node totals too alike to tell what regions cost");
        assertThat(e.cpu().tooAlike()).isTrue();
        assertThat(e.disk().learnt()).as(e.disk().detail()).isTrue();
        assertThat(e.disk().tooAlike()).isFalse();
    }

    @Test
    void learnsFromOneWindowWhenThereAreEnoughNodes() {
        SyntheticCluster c = new SyntheticCluster(40, 800, 2);
        Estimator.Estimate e = fit(estimator, windows(c, 1, 2, 0.01));

        assertThat(e.disk().learnt()).as(e.disk().detail()).isTrue();
        assertThat(e.disk().fitError()).isLessThan(e.disk().mappingError());
    }

    @Test
    void moreWindowsFitBetter() {
        SyntheticCluster c = new SyntheticCluster(12, 300, 3);
        List<ClusterSnapshot> ws = windows(c, 6, 3, 0.02);
        ClusterSnapshot unseen = c.window(20, 3, SyntheticCluster::byteCpu, SyntheticCluster::cachedDisk, 0.2, 0);
        double one = unseenError(fit(estimator, ws.subList(0, 1)).disk(), unseen, SyntheticCluster::cachedDisk);
        double six = unseenError(fit(estimator, ws).disk(), unseen, SyntheticCluster::cachedDisk);

        assertThat(six).isLessThan(one);
    }

    @Test
    void keepsTheMappingOnThinData() {
        SyntheticCluster c = new SyntheticCluster(3, 30, 4);
        Estimator.Estimate e = fit(estimator, windows(c, 1, 4, 0));

        assertThat(e.cpu().learnt()).isFalse();
        assertThat(e.cpu().detail()).contains("thin data");
        assertThat(e.estimation().model()).isEqualTo(Estimation.MAPPING);
    }

    /** CPU that follows the paper's mapping: 1 per read, 1.63 per write (the prior's shape), in 10 µs. */
    private static double mappingCpu(RegionCounters c) {
        return (c.readOps() + 1.63 * c.writeOps()) * 10e-6;
    }

    /**
     * One window of eight nodes is too few for every weight, but not for two: the mapping's shape
     * and one background for every node (work no region explains). The background is found, and
     * so not shared among the regions as if it moved with them.
     */
    @Test
    void oneWindowOfAFewNodesFitsTheMappingWithABackground() {
        SyntheticCluster c = new SyntheticCluster(8, 160, 6);
        ClusterSnapshot w = c.window(0, 6, EstimatorTest::mappingCpu, SyntheticCluster::cachedDisk, 1.5, 0.005);
        Estimator.Estimate e = estimator.estimate(w, List.of());

        assertThat(e.cpu().learnt()).as(e.cpu().detail()).isTrue();
        assertThat(e.cpu().detail()).contains("the mapping with a per-node background").contains("too few for every weight");
        assertThat(e.cpu().background()).isBetween(1.3, 1.7);
        assertThat(e.cpu().fitError()).isLessThan(e.cpu().mappingError());
    }

    /**
     * One window of eight nodes where those given more work were the faster ones: their totals
     * fall as their regions' work grows. The best non-negative fit is then the background alone,
     * a constant under which the regions cost nothing and no move shifts any load. It is not
     * used: the regions carry the nodes' load.
     */
    @Test
    void aFitInWhichRegionsCostNothingIsNotUsed() {
        ClusterSnapshot w = new SyntheticCluster(8, 160, 6).window(0, 6, EstimatorTest::mappingCpu,
                SyntheticCluster::cachedDisk, 0.5, 0.005);
        double[] work = new double[w.nodes().size()];
        for (Region r : w.regions()) {
            work[Integer.parseInt(r.node().substring(1))] += mappingCpu(r.counters());
        }
        double mean = java.util.Arrays.stream(work).average().orElseThrow();
        List<Node> nodes = new ArrayList<>();
        double total = 0;
        for (int j = 0; j < work.length; j++) {
            Node n = w.nodes().get(j);
            double cpu = 2 * mean / work[j];
            nodes.add(new Node(n.id(), n.cpuCores(), cpu, n.diskBytesPerSec()));
            total += cpu;
        }
        Estimator.Estimate e = estimator.estimate(w.withState(nodes, w.regions()), List.of());

        assertThat(CostFit.regionsCost(e.cpu().weights())).as(e.cpu().detail()).isTrue();
        assertThat(e.model().regions().stream().mapToDouble(RegionLoad::cpu).sum()).isGreaterThan(0.5 * total);
    }

    /** CPU whose writes cost five reads, not the mapping's 1.63. */
    private static double heavyWriteCpu(RegionCounters c) {
        return (c.readOps() + 5 * c.writeOps()) * 10e-6;
    }

    /**
     * One window of eight nodes whose mixes of reads and writes differ, where a write costs five
     * reads: the two-weight model keeps the mapping's 1.63 and cannot fit it, but the mapping's
     * read and write parts scaled apart (three weights) can, and learn the ratio.
     */
    @Test
    void oneWindowOfAFewNodesLearnsWhatAWriteCostsAgainstARead() {
        List<Node> nodes = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        for (int j = 0; j < 8; j++) {
            double reads = 100 * (1 + j % 4);
            double writes = 100 * (1 + (3 * j) % 5);
            double cpu = 1.5;
            for (int k = 0; k < 9; k++) {
                double size = new double[] {300, 8_000, 100_000}[k % 3]; // every read size class: too few samples for each weight
                RegionCounters c = new RegionCounters(reads, writes, reads * size, writes * 500);
                cpu += heavyWriteCpu(c);
                int i = 9 * j + k;
                regions.add(new Region("r" + i, "t", new KeyRange(String.format("%03x", i), String.format("%03x", i + 1)),
                        "n" + j, 1e6, c));
            }
            nodes.add(new Node("n" + j, 16, cpu, 1e6));
        }
        Estimator.Estimate e = estimator.estimate(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions), List.of());

        assertThat(e.cpu().learnt()).as(e.cpu().detail()).isTrue();
        assertThat(e.cpu().detail()).contains("the mapping with its reads and writes scaled apart and a per-node background")
                .contains("too few for every weight");
        double[] weights = e.cpu().weights();
        assertThat(weights[CostFeatures.WRITE_OPS] / weights[1]).as("a write against a read").isCloseTo(5.0,
                org.assertj.core.data.Offset.offset(0.25));
        assertThat(e.cpu().background()).isBetween(1.4, 1.6);
        assertThat(e.cpu().fitError()).isLessThan(0.02).isLessThan(e.cpu().mappingError());
    }

    /**
     * Nodes of different sizes carry work no region explains in proportion to their size (a node
     * of 16 cores takes twice the replicas' writes of one of 8). One window of eight such nodes
     * fits the mapping with that background per node of mean size, and each node keeps its part
     * of it when its regions move: twice as much on the large nodes as on the small.
     */
    @Test
    void nodesOfDifferentSizesKeepABackgroundInProportion() {
        // 1.5 cores on a node of mean size (12 cores): 1.0 on the small nodes, 2.0 on the large
        Estimator.Estimate e = estimator.estimate(eightAndSixteenCores(true), List.of());

        assertThat(e.cpu().learnt()).as(e.cpu().detail()).isTrue();
        assertThat(e.cpu().detail()).contains("the mapping with a per-node background");
        assertThat(e.cpu().background()).isBetween(1.3, 1.7);
        int small = 0;
        int large = 1;
        assertThat(e.model().base(large, Dimension.CPU) / e.model().base(small, Dimension.CPU)).isCloseTo(2.0,
                org.assertj.core.data.Offset.offset(0.01));
    }

    /**
     * The same nodes where the work no region explains is the same on each (a daemon's fixed work):
     * the background in proportion to size mispredicts held-out nodes, the same one on each does not,
     * and each node keeps the same base. One window judged that choice on the layout it explains only,
     * so the estimate claims no less error than the shape it passed over.
     */
    @Test
    void nodesOfDifferentSizesKeepTheSameBackgroundWhereThatPredictsHeldOutNodesBetter() {
        Estimator.Estimate e = estimator.estimate(eightAndSixteenCores(false), List.of());

        assertThat(e.shapes().cpu()).as(e.estimation().detail()).isEqualTo(BackgroundShape.NODE);
        assertThat(e.estimation().detail()).contains("the same on each node");
        assertThat(e.model().base(1, Dimension.CPU) / e.model().base(0, Dimension.CPU)).isCloseTo(1.0,
                org.assertj.core.data.Offset.offset(0.05));
        assertThat(e.estimation().fitError()).as("claimed on one window")
                .isGreaterThan(Math.max(e.cpu().fitError(), e.disk().fitError()));
    }

    /**
     * One window of eight nodes of 8 and 16 cores, by turns, with 1.5 cores of background on a node
     * of mean size: each node's in proportion to its cores ({@code bySize}), else 1.5 on each.
     */
    private static ClusterSnapshot eightAndSixteenCores(boolean bySize) {
        SyntheticCluster c = new SyntheticCluster(8, 160, 6);
        ClusterSnapshot w = c.window(0, 6, EstimatorTest::mappingCpu, SyntheticCluster::cachedDisk, 1.5, 0.005);
        List<Node> sized = new ArrayList<>();
        for (Node n : w.nodes()) {
            double cores = sized.size() % 2 == 0 ? 8 : 16;
            double cpu = bySize ? n.cpuUsage() - 1.5 + 1.5 * cores / 12 : n.cpuUsage();
            sized.add(new Node(n.id(), cores, cpu, n.diskBytesPerSec(), new io.libra.core.model.Capacity(cores, 1e9)));
        }
        return w.withState(sized, w.regions());
    }

    @Test
    void aThreeNodeClusterLearnsOnceItHasEnoughWindowsJudgedOnWindowsLeftOut() {
        SyntheticCluster c = new SyntheticCluster(3, 60, 5);
        Estimator.Estimate two = fit(estimator, windows(c, 2, 5, 0));
        assertThat(two.disk().learnt()).as("two windows of three nodes: too few to judge").isFalse();
        assertThat(two.disk().detail()).contains("thin data");

        Estimator.Estimate six = fit(estimator, windows(c, 6, 5, 0));
        assertThat(six.disk().learnt()).as(six.disk().detail()).isTrue();
        assertThat(six.disk().detail()).contains("on windows left out");
        ClusterSnapshot unseen = c.window(20, 5, SyntheticCluster::byteCpu, SyntheticCluster::cachedDisk, 0.2, 0);
        assertThat(unseenError(six.disk(), unseen, SyntheticCluster::cachedDisk)).as("a window it never saw")
                .isLessThan(unseenError(two.disk(), unseen, SyntheticCluster::cachedDisk));
    }

    @Test
    void leavesOutCollinearFeaturesAndSaysSo() {
        List<Node> nodes = new ArrayList<>();
        List<Region> regions = new ArrayList<>();
        for (int j = 0; j < 8; j++) {
            double scale = j + 1;
            nodes.add(new Node("n" + j, 16, scale, scale * 1e6));
            RegionCounters same = new RegionCounters(100 * scale, 50 * scale, 100 * scale * 1000, 50 * scale * 1000);
            regions.add(new Region("r" + j, "t", new KeyRange(String.format("%02x", j), String.format("%02x", j + 1)),
                    "n" + j, 1e6, same));
        }
        Estimator.Estimate e = estimator.estimate(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions), List.of());

        assertThat(e.disk().detail()).contains("collinear, left out: small read bytes");
        assertThat(e.disk().fitError()).isLessThanOrEqualTo(e.disk().mappingError());
    }

    @Test
    void neverWorseThanTheMappingOnHeldOutNodes() {
        for (long seed = 10; seed < 20; seed++) {
            SyntheticCluster c = new SyntheticCluster(10, 200, seed);
            List<ClusterSnapshot> ws = new ArrayList<>();
            EstimationConfig paper = EstimationConfig.DEFAULT;
            for (int w = 0; w < 3; w++) {
                // node totals that follow the paper's own mapping, with noise: nothing better to learn
                ws.add(c.window(w, seed, r -> paper.cpuWeight(r) * 1e-4, r -> paper.disk().cost(r), 0, 0.05));
            }
            Estimator.Estimate e = fit(estimator, ws);
            for (CostFit f : List.of(e.cpu(), e.disk())) {
                assertThat(f.fitError()).as("seed %d %s: %s", seed, f.dimension(), f.detail())
                        .isLessThanOrEqualTo(f.mappingError());
            }
        }
    }

    @Test
    void measuredRegionLoadIsPreferred() {
        List<Node> nodes = List.of(new Node("a", 8, 2.0, 100), new Node("b", 8, 1.0, 100));
        RegionCounters same = new RegionCounters(100, 0, 1000, 0);
        List<Region> regions = List.of(
                region("r1", "00", "40", "a", same, new MeasuredLoad(1.5, Double.NaN)),
                region("r2", "40", "80", "a", same, new MeasuredLoad(0.3, Double.NaN)),
                region("r3", "80", "", "b", same, new MeasuredLoad(1.0, Double.NaN)));
        LoadModel m = estimator.estimate(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions), List.of()).model();

        assertThat(m.regions().get(0).cpu()).isEqualTo(1.5);
        assertThat(m.regions().get(1).cpu()).isEqualTo(0.3);
        assertThat(m.base(0, Dimension.CPU)).isEqualTo(0.2, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(m.regions().get(0).disk()).as("disk not measured: shared by the mapping").isEqualTo(50.0);
    }

    /**
     * Measured figures that explain a sliver of a node's load (a RegionServer whose WAL and flush
     * writes ran outside the sampled threads) are set aside for the cost model, and the estimate
     * says so, rather than turning the rest into an immovable base.
     */
    @Test
    void measuredFiguresThatExplainLittleOfTheNodeAreSetAside() {
        List<Node> nodes = List.of(new Node("a", 8, 2.0, 30e6), new Node("b", 8, 1.0, 1e6));
        RegionCounters writes = new RegionCounters(0, 100, 0, 1e6);
        List<Region> regions = List.of(
                region("r1", "00", "40", "a", writes, new MeasuredLoad(1.0, 60e3)),
                region("r2", "40", "80", "a", writes, new MeasuredLoad(0.9, 30e3)),
                region("r3", "80", "", "b", writes, new MeasuredLoad(0.8, 0.9e6)));
        Estimator.Estimate e = estimator.estimate(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, regions), List.of());
        LoadModel m = e.model();

        assertThat(m.regions().get(0).disk() + m.regions().get(1).disk()).as("a's disk shared by the cost model")
                .isGreaterThan(0.5 * 30e6);
        assertThat(m.regions().get(2).disk()).as("b's measured disk explains 90%% of it: kept").isEqualTo(0.9e6);
        assertThat(m.regions().get(0).cpu()).as("a's measured CPU explains 95%% of it: kept").isEqualTo(1.0);
        assertThat(e.estimation().model()).isEqualTo("measured/mapping");
        assertThat(e.estimation().detail()).contains("measured per region set aside on 1 node(s): it explains at most "
                + "0.3% of their load, 50% needed");
    }

    private static Region region(String id, String start, String end, String node, RegionCounters c, MeasuredLoad m) {
        return new Region(id, "t", new KeyRange(start, end), node, 1e6, c, List.of(), null, m);
    }

    @Test
    void rejectsHistoryFromAnotherCluster() {
        SyntheticCluster c = new SyntheticCluster(8, 50, 5);
        List<ClusterSnapshot> ws = windows(c, 2, 5, 0);
        ClusterSnapshot other = new ClusterSnapshot("hbase", Instant.EPOCH, 60, List.of(new Node("x1", 8, 1, 1)), List.of());
        ClusterSnapshot cassandra = new ClusterSnapshot("cassandra", Instant.EPOCH, 60, ws.get(0).nodes(), List.of());

        assertThatThrownBy(() -> estimator.estimate(ws.get(1), List.of(other))).hasMessageStartingWith("nodes:");
        assertThatThrownBy(() -> estimator.estimate(ws.get(0), List.of(ws.get(1)))).hasMessageStartingWith("capturedAt:");
        assertThatThrownBy(() -> estimator.estimate(ws.get(1), List.of(cassandra))).hasMessageStartingWith("store:");
    }
}
