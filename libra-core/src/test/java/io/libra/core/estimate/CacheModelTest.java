package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CacheModelTest {
    /** The hidden cache the node totals follow: 16 KiB blocks, hits up to 0.95, a cache half a node's mean bytes. */
    static final CacheModel TRUTH = new CacheModel(16384, 0.95, 0.5, 0, new double[] {2e6, 1, 3}, 0, 0);

    /** Regions of small hot values and large cold ones, dealt over {@code nodes} nodes by {@code seed}. */
    static List<Region> regions(int nodes, int perNode, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Region> out = new ArrayList<>();
        for (int i = 0; i < nodes * perNode; i++) {
            boolean small = rnd.nextInt(3) > 0;
            double reads = small ? 50 + 400 * rnd.nextDouble() : 5 + 40 * rnd.nextDouble();
            double value = small ? 200 + 800 * rnd.nextDouble() : 40_000 + 80_000 * rnd.nextDouble();
            double size = 1e8 * (0.2 + 2 * rnd.nextDouble());
            Region r = Clusters.region(i, "n" + rnd.nextInt(nodes), reads, reads * 0.05, reads * value, reads * 0.05 * value);
            out.add(new Region(r.id(), r.table(), r.range(), r.node(), size, r.counters()));
        }
        return out;
    }

    /** The window the hidden cache gives those regions where they sit. */
    private static ClusterSnapshot measured(int nodes, List<Region> regions, long second) {
        return measured(nodes, regions, second, TRUTH);
    }

    /** As {@link #measured(int, List, long)} with another hidden cache. */
    static ClusterSnapshot measured(int nodes, List<Region> regions, long second, CacheModel hidden) {
        CacheModel truth = truth(nodes, regions, hidden);
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < nodes; j++) {
            String id = "n" + j;
            List<Region> on = regions.stream().filter(r -> r.node().equals(id)).toList();
            ns.add(new Node(id, 64, 1, truth.background() + truth.nodeDisk(on)));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH.plusSeconds(second), 60, ns, regions);
    }

    private static CacheModel truth(int nodes, List<Region> regions, CacheModel hidden) {
        double bytes = regions.stream().mapToDouble(Region::sizeBytes).sum() / nodes;
        return new CacheModel(hidden.blockBytes(), hidden.maxHit(), hidden.reach(), bytes, hidden.weights(), 0, 0);
    }

    /** Every region on {@code dealt} from a second dealing, counters and sizes unchanged. */
    static List<Region> movedAsIn(List<Region> regions, List<Region> dealt) {
        List<Region> out = new ArrayList<>();
        for (int i = 0; i < regions.size(); i++) {
            out.add(regions.get(i).onNode(dealt.get(i).node()));
        }
        return out;
    }

    @Test
    void learnsTheCacheFromOneWindowAndForecastsALayoutItWasNotFittedOn() {
        assertThat(assertForecastsANewLayout(TRUTH).blockBytes()).isEqualTo(16384);
    }

    /**
     * Scans: counters count rows, and a scan of many small rows reads their bytes side by side, not a
     * block per row. A block floor would price those rows at 16-64× their bytes; no floor is learnt.
     */
    @Test
    void learnsReadsOfContiguousBytesWithNoBlockFloor() {
        CacheModel scans = new CacheModel(0, 0.9, 0.2, 0, new double[] {2e6, 1, 3}, 0, 0);
        assertThat(assertForecastsANewLayout(scans).blockBytes()).isZero();
    }

    /** Fitted on one window of 12 nodes, the model forecasts every node of another layout within 2%. */
    private static CacheModel assertForecastsANewLayout(CacheModel hidden) {
        List<Region> before = regions(12, 20, 1);
        ClusterSnapshot window = measured(12, before, 0, hidden);
        CacheModel m = CacheModel.fit(List.of(window), 0.05).orElseThrow();
        assertThat(m.fitError()).isLessThan(0.01);

        List<Region> after = movedAsIn(before, regions(12, 20, 2));
        ClusterSnapshot truth = measured(12, after, 60, hidden);
        List<Node> ns = truth.nodes();
        for (int j = 0; j < ns.size(); j++) {
            String id = ns.get(j).id();
            double forecast = m.background() + m.nodeDisk(after.stream().filter(r -> r.node().equals(id)).toList());
            assertThat(forecast).as(id).isCloseTo(ns.get(j).diskBytesPerSec(),
                    org.assertj.core.data.Percentage.withPercentage(2));
        }
        return m;
    }

    /** Past {@link CacheModel#FITTED_NODES} nodes it fits on every k-th, and the cache it learns holds for all of them. */
    @Test
    void aLargeClusterIsFittedOnASampleOfItsNodes() {
        List<Region> regions = regions(300, 6, 3);
        CacheModel m = CacheModel.fit(List.of(measured(300, regions, 0)), 0.05).orElseThrow();
        ClusterSnapshot truth = measured(300, regions, 0);
        double err = 0;
        double total = 0;
        for (Node n : truth.nodes()) {
            err += Math.abs(m.background() + m.nodeDisk(regions.stream().filter(r -> r.node().equals(n.id())).toList())
                    - n.diskBytesPerSec());
            total += n.diskBytesPerSec();
        }
        assertThat(err / total).as("over all 300 nodes").isLessThan(0.01);
    }

    @Test
    void isNotUsedWhereItDoesNotBeatTheLinearModelByAFifth() {
        ClusterSnapshot window = measured(12, regions(12, 20, 1), 0);
        double cache = CacheModel.fit(List.of(window), 1).orElseThrow().fitError();
        assertThat(CacheModel.fit(List.of(window), cache / (1 - CacheModel.MARGIN) * 0.99)).isEmpty();
        assertThat(CacheModel.fit(List.of(window), cache / (1 - CacheModel.MARGIN) * 1.01)).isPresent();
    }

    /** Every node gets the same cache in this model, which nodes of unequal capacity belie. */
    @Test
    void isNotFittedOnNodesOfUnequalCapacity() {
        ClusterSnapshot equal = measured(12, regions(12, 20, 1), 0);
        assertThat(CacheModel.fit(List.of(equal), 1)).isPresent();
        List<Node> nodes = new ArrayList<>();
        for (int j = 0; j < equal.nodes().size(); j++) {
            Node n = equal.nodes().get(j);
            double c = j % 2 == 0 ? 2 : 1;
            nodes.add(new Node(n.id(), n.cpuCores(), n.cpuUsage(), n.diskBytesPerSec(), new Capacity(8 * c, 1e9 * c)));
        }
        ClusterSnapshot unequal = new ClusterSnapshot("generic", equal.capturedAt(), 60, nodes, equal.regions());
        assertThat(CacheModel.fit(List.of(unequal), 1)).isEmpty();
    }

    @Test
    void thinDataIsRefused() {
        assertThat(CacheModel.fit(List.of(measured(5, regions(5, 20, 1), 0), measured(5, regions(5, 20, 2), 60),
                measured(5, regions(5, 20, 3), 120)), 1)).as("5 nodes").isEmpty();
        assertThat(CacheModel.fit(List.of(measured(7, regions(7, 20, 1), 0)), 1)).as("7 node samples").isEmpty();
        assertThat(CacheModel.fit(List.of(measured(8, regions(8, 20, 1), 0)), 1)).as("8 node samples").isPresent();
    }

    /**
     * Node disk that no region explains (the same work on disks of their own speed, ±30%): the best
     * fit is a constant per node, whose region weights come out near zero. Such a fit is no cache,
     * and nothing planned on it moves disk, so it is refused even against a linear model it beats.
     */
    @Test
    void aFitInWhichTheRegionsCarryNoDiskIsRefused() {
        List<Region> regions = regions(12, 20, 1);
        SplittableRandom speed = new SplittableRandom(7);
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < 12; j++) {
            ns.add(new Node("n" + j, 64, 1, 4e8 * (0.7 + 0.6 * speed.nextDouble())));
        }
        ClusterSnapshot window = new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, regions);
        assertThat(CacheModel.candidate(List.of(window), 1)).isEmpty();
        assertThat(CacheModel.candidate(List.of(measured(12, regions, 0)), 1)).as("the same regions under a cache").isPresent();
    }

    /** Fitted on one window, its forecast claims no better than the linear model it beat; on more, its own error. */
    @Test
    void onOneWindowTheForecastClaimsNoBetterThanTheLinearModel() {
        CacheModel one = CacheModel.fit(List.of(measured(8, regions(8, 20, 1), 0)), 0.5).orElseThrow();
        assertThat(one.fitError()).isLessThan(0.4);
        assertThat(one.forecastError(1)).isEqualTo(0.5);
        assertThat(one.forecastError(2)).isEqualTo(one.fitError());
    }

    /** The estimator takes it where it beats the linear model, and says so. */
    @Test
    void theEstimatorSharesDiskByEachRegionsCostWhereItSits() {
        ClusterSnapshot window = measured(12, regions(12, 20, 1), 0);
        Estimator.Estimate e = new Estimator(EstimationConfig.DEFAULT).estimate(window, List.of());
        assertThat(e.cache()).isPresent();
        assertThat(e.estimation().detail()).contains("block cache learnt");
        assertThat(e.model().cache()).isPresent();
        assertThat(new Estimator(EstimationConfig.DEFAULT, false).estimate(window, List.of()).cache()).isEmpty();
    }

    /** Moving a region changes both nodes as the cache model says, not by the region's share alone. */
    @Test
    void aMoveChangesBothNodesAsTheCacheSays() {
        List<Region> regions = regions(12, 20, 1);
        ClusterSnapshot window = measured(12, regions, 0);
        LoadModel model = new Estimator(EstimationConfig.DEFAULT).estimate(window, List.of()).model();
        CacheModel m = model.cache().orElseThrow().model();
        RegionLoad hot = model.regions().stream().filter(r -> r.node().equals("n0"))
                .max(java.util.Comparator.comparingDouble(r -> r.region().counters().readOps())).orElseThrow();
        List<RegionLoad> moved = new ArrayList<>();
        model.regions().forEach(r -> moved.add(r == hot ? new RegionLoad(r.region().onNode("n1"), r.cpu(), r.disk()) : r));
        LoadModel after = model.withRegions(moved);

        for (String id : List.of("n0", "n1")) {
            int j = model.nodeIndex(id);
            double change = m.nodeDisk(regionsOn(moved, id)) - m.nodeDisk(regionsOn(model.regions(), id));
            assertThat(after.load(j, io.libra.core.model.Dimension.DISK) - model.load(j, io.libra.core.model.Dimension.DISK))
                    .as(id).isCloseTo(change, org.assertj.core.data.Offset.offset(1e-6 * Math.abs(change) + 1e-6));
        }
        assertThat(after.load(model.nodeIndex("n2"), io.libra.core.model.Dimension.DISK))
                .isEqualTo(model.load(model.nodeIndex("n2"), io.libra.core.model.Dimension.DISK));
    }

    private static List<Region> regionsOn(List<RegionLoad> loads, String node) {
        return loads.stream().filter(r -> r.node().equals(node)).map(RegionLoad::region).toList();
    }

    @Test
    void threeWeightsAreFittedNonNegativeAndExactly() {
        double[][] gram = {{4, 2, 0}, {2, 3, 1}, {0, 1, 2}};
        double[] w = {1, 2, 0.5};
        double[] xty = new double[3];
        for (int p = 0; p < 3; p++) {
            for (int q = 0; q < 3; q++) {
                xty[p] += gram[p][q] * w[q];
            }
        }
        assertThat(CacheModel.nonNegative(gram, xty)).containsExactly(new double[] {1, 2, 0.5},
                org.assertj.core.data.Offset.offset(1e-9));
        double[] negative = CacheModel.nonNegative(gram, new double[] {-4, 1, 2});
        assertThat(java.util.Arrays.stream(negative).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(negative[0]).isZero();
    }
}
