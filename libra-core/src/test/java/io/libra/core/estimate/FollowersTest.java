package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Replica writes on nodes of unequal capacity ({@link Followers}): node k applies φ·w·s_k/(S − s_j)
 * for each region of replicated writes w led by another node j.
 */
class FollowersTest {
    private static final double[] CAPACITY = {4, 4, 2, 2, 2, 1, 1, 1};
    private static final double PHI = 2;
    private static final double[] PRIOR = CostFeatures.prior(Dimension.DISK, EstimationConfig.DEFAULT);

    @Test
    void eachNodeAppliesItsShareOfTheReplicasOfEveryRegionLedElsewhereAndTogetherAllOfThem() {
        double[] size = {1.5, 0.75, 0.75};
        double[] replicas = Followers.replicas(size, 3, new double[] {0, 10, 0});

        assertThat(replicas[0]).isCloseTo(10 * 1.5 / (3 - 0.75), within(1e-12));
        assertThat(replicas[1]).isZero();
        assertThat(replicas[2]).isCloseTo(10 * 0.75 / (3 - 0.75), within(1e-12));
        assertThat(Followers.replicas(size, 3, new double[] {4, 7, 2})).satisfies(
                r -> assertThat(r[0] + r[1] + r[2]).isCloseTo(13, within(1e-9)));
    }

    @Test
    void aRingOrNodesOfEqualSizeShowNoFollowers() {
        Synthetic equal = new Synthetic(new double[] {2, 2, 2, 2}, 40, 1);
        Synthetic unequal = new Synthetic(CAPACITY, 40, 1);
        ClusterSnapshot w = unequal.window(0, 0);

        assertThat(Followers.sizes(equal.window(0, 0), Dimension.DISK)).isEmpty();
        assertThat(Followers.sizes(w, Dimension.DISK)).hasSize(CAPACITY.length);
        assertThat(Followers.sizes(new ClusterSnapshot(w.store(), w.capturedAt(), w.windowSeconds(), w.nodes(), w.regions(),
                3, java.util.Map.of()), Dimension.DISK)).isEmpty();
    }

    /**
     * Moving a write-heavy region from a small node to a large one: the large node stops applying
     * its replica share, so it gains less than the region's own writes, and the small node starts
     * applying one, so it sheds less. The model forecasts every node as the truth has it.
     */
    @Test
    void aMovedRegionLeavesItsReplicaShareBehindAndStopsTheDestinationsOne() {
        Synthetic cluster = new Synthetic(CAPACITY, 80, 3);
        ClusterSnapshot now = cluster.window(0, 0);
        LoadModel model = cluster.truthModel(now);
        int hot = cluster.heaviestWriterOn(now, "n7");

        List<RegionLoad> moved = new ArrayList<>(model.regions());
        RegionLoad r = moved.get(hot);
        moved.set(hot, new RegionLoad(r.region().onNode("n0"), r.cpu(), r.disk()));
        LoadModel after = model.withRegions(moved);
        double[] truth = cluster.disk(moved.stream().map(RegionLoad::region).toList());

        for (int j = 0; j < CAPACITY.length; j++) {
            assertThat(model.load(j, Dimension.DISK)).as("n%d now", j).isCloseTo(cluster.disk(now.regions())[j],
                    within(1e-6 * truth[j]));
            assertThat(after.load(j, Dimension.DISK)).as("n%d after", j).isCloseTo(truth[j], within(1e-6 * truth[j]));
        }
        double w = Synthetic.replicated(r.region().counters());
        assertThat(after.load(0, Dimension.DISK) - model.load(0, Dimension.DISK)).as("n0 gains its load less its replica share")
                .isCloseTo(r.disk() - PHI * w * 4 / (17 - 1), within(1e-6 * r.disk()));
        assertThat(after.total(Dimension.DISK)).isCloseTo(model.total(Dimension.DISK), within(1e-6 * model.total(Dimension.DISK)));
    }

    /**
     * A model of part of the cluster (pinned regions folded into their node's base, a node in flux
     * left out, as the HBase balancer builds it): the regions left out still lead where they are,
     * so the kept nodes apply the same replica shares, and a move among the kept regions changes the
     * kept nodes as it does in the whole model.
     */
    @Test
    void aModelOfPartOfTheClusterKeepsTheReplicaSharesOfTheRegionsLeftOut() {
        Synthetic cluster = new Synthetic(CAPACITY, 80, 3);
        ClusterSnapshot now = cluster.window(0, 0);
        LoadModel whole = cluster.truthModel(now);
        List<Node> kept = now.nodes().subList(0, CAPACITY.length - 1);
        List<RegionLoad> movable = new ArrayList<>();
        double[] keptBase = new double[kept.size()];
        for (RegionLoad r : whole.regions()) {
            int j = Synthetic.index(r.node());
            if (j < kept.size() && r.id().hashCode() % 3 != 0) {
                movable.add(r);
            } else if (j < kept.size()) {
                keptBase[j] += r.disk();
            }
        }
        for (int j = 0; j < kept.size(); j++) {
            keptBase[j] += whole.base(j, Dimension.DISK);
        }
        LoadModel part = whole.restricted(kept, movable, new double[kept.size()], keptBase);

        RegionLoad r = movable.stream().filter(x -> x.node().equals("n6")).findFirst().orElseThrow();
        LoadModel wholeAfter = whole.withRegions(whole.regions().stream()
                .map(x -> x == r ? new RegionLoad(x.region().onNode("n0"), x.cpu(), x.disk()) : x).toList());
        LoadModel partAfter = part.withRegions(part.regions().stream()
                .map(x -> x == r ? new RegionLoad(x.region().onNode("n0"), x.cpu(), x.disk()) : x).toList());
        for (int j = 0; j < kept.size(); j++) {
            double w = whole.load(j, Dimension.DISK);
            assertThat(part.load(j, Dimension.DISK)).as("n%d", j).isCloseTo(w, within(1e-9 * w));
            assertThat(partAfter.load(j, Dimension.DISK)).as("n%d after", j)
                    .isCloseTo(wholeAfter.load(j, Dimension.DISK), within(1e-9 * w));
        }
    }

    /**
     * Three windows of eight nodes of capacities 4:4:2:2:2:1:1:1, each writing its regions' writes
     * on two other nodes in proportion to their capacity: the estimate learns φ, and forecasts a
     * layout it never saw within 3% per node. Had each region's share of its node's disk moved with
     * it whole, the forecast would be several times further off.
     */
    @Test
    void theEstimateLearnsTheReplicaWritesAndForecastsANewLayoutByThem() {
        Synthetic cluster = new Synthetic(CAPACITY, 240, 5);
        List<ClusterSnapshot> history = List.of(cluster.window(0, 0.01), cluster.window(1, 0.01));
        ClusterSnapshot now = cluster.window(2, 0.01);

        Estimator.Estimate e = new Estimator(EstimationConfig.DEFAULT).estimate(now, history);
        List<RegionLoad> layout = cluster.relaid(e.model(), 3);
        double[] truth = cluster.disk(layout.stream().map(RegionLoad::region).toList());
        LoadModel forecast = e.model().withRegions(layout);
        LoadModel whole = new LoadModel(now.nodes(), e.model().regions(), new double[CAPACITY.length],
                new double[CAPACITY.length]).withRegions(wholeShares(now, layout));

        assertThat(e.disk().weights()[CostFeatures.FOLLOWERS]).as(e.disk().detail()).isPositive();
        assertThat(e.disk().detail()).contains("replica writes");
        double followed = worst(forecast, truth);
        assertThat(followed).as("worst node off with followers").isLessThan(0.03);
        assertThat(worst(whole, truth)).as("worst node off with shares moving whole").isGreaterThan(3 * followed);
    }

    /** The layout with each region carrying its share of its node's measured disk, all of it moving with it. */
    private static List<RegionLoad> wholeShares(ClusterSnapshot now, List<RegionLoad> layout) {
        double[] measured = new double[now.nodes().size()];
        double[] own = new double[measured.length];
        java.util.Map<String, Integer> at = new java.util.HashMap<>();
        for (int j = 0; j < measured.length; j++) {
            at.put(now.nodes().get(j).id(), j);
            measured[j] = now.nodes().get(j).diskBytesPerSec();
        }
        java.util.Map<String, String> before = new java.util.HashMap<>();
        for (Region r : now.regions()) {
            before.put(r.id(), r.node());
            own[at.get(r.node())] += Synthetic.ownDisk(r.counters());
        }
        List<RegionLoad> out = new ArrayList<>();
        for (RegionLoad r : layout) {
            int j = at.get(before.get(r.id()));
            out.add(new RegionLoad(r.region(), 0, Synthetic.ownDisk(r.region().counters()) * measured[j] / own[j]));
        }
        return out;
    }

    private static double worst(LoadModel m, double[] truth) {
        double worst = 0;
        for (int j = 0; j < truth.length; j++) {
            worst = Math.max(worst, Math.abs(m.load(j, Dimension.DISK) - truth[j]) / truth[j]);
        }
        return worst;
    }

    /** Regions of reads and writes on nodes of the given capacities, laid out at random each window. */
    private static final class Synthetic {
        private final double[] capacity;
        private final List<RegionCounters> counters = new ArrayList<>();
        private final long seed;

        Synthetic(double[] capacity, int regions, long seed) {
            this.capacity = capacity;
            this.seed = seed;
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int i = 0; i < regions; i++) {
                double reads = rnd.nextDouble(0, 1000);
                double writes = rnd.nextDouble(0, 800);
                counters.add(new RegionCounters(reads, writes, reads * rnd.nextDouble(5000, 60_000),
                        writes * rnd.nextDouble(200, 4000)));
            }
        }

        /** What a region costs the disk of the node leading it: its reads' bytes and its writes as the mapping weighs them. */
        static double ownDisk(RegionCounters c) {
            return c.readBytes() + replicated(c);
        }

        /** What each replica of a region applies. */
        static double replicated(RegionCounters c) {
            return CostFeatures.replicated(c, PRIOR);
        }

        /** Each node's true disk for regions led where they are: its own regions' plus its replica shares. */
        double[] disk(List<Region> regions) {
            double total = java.util.Arrays.stream(capacity).sum();
            double[] out = new double[capacity.length];
            for (Region r : regions) {
                int j = index(r.node());
                out[j] += ownDisk(r.counters());
                for (int k = 0; k < out.length; k++) {
                    if (k != j) {
                        out[k] += PHI * replicated(r.counters()) * capacity[k] / (total - capacity[j]);
                    }
                }
            }
            return out;
        }

        ClusterSnapshot window(int index, double noise) {
            SplittableRandom rnd = new SplittableRandom(seed * 7919 + index);
            List<Region> placed = new ArrayList<>();
            for (int i = 0; i < counters.size(); i++) {
                placed.add(region(i, "n" + rnd.nextInt(capacity.length)));
            }
            double[] disk = disk(placed);
            List<Node> nodes = new ArrayList<>();
            for (int j = 0; j < capacity.length; j++) {
                double f = 1 + noise * rnd.nextDouble(-1, 1);
                nodes.add(new Node("n" + j, 4 * capacity[j], 0.5 * capacity[j] * f, disk[j] * f,
                        new Capacity(4 * capacity[j], 2e8 * capacity[j])));
            }
            return new ClusterSnapshot("hbase", Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * index), 60, nodes,
                    placed);
        }

        /**
         * The window's true disk as a load model with followers at the true φ: each region carrying
         * what it costs its own node, each node's base its replica shares in this layout.
         */
        LoadModel truthModel(ClusterSnapshot s) {
            List<RegionLoad> own = s.regions().stream().map(r -> new RegionLoad(r, 0, ownDisk(r.counters()))).toList();
            double[] replicas = disk(s.regions());
            own.forEach(r -> replicas[index(r.node())] -= r.disk());
            return new LoadModel(s.nodes(), own, new double[capacity.length], replicas)
                    .withFollowers(null, Followers.of(s, Dimension.DISK, PHI, PRIOR));
        }

        int heaviestWriterOn(ClusterSnapshot s, String node) {
            int best = -1;
            for (int i = 0; i < s.regions().size(); i++) {
                Region r = s.regions().get(i);
                if (r.node().equals(node) && (best < 0 || replicated(r.counters()) > replicated(s.regions().get(best).counters()))) {
                    best = i;
                }
            }
            return best;
        }

        /** The model's regions laid out anew at random. */
        List<RegionLoad> relaid(LoadModel m, int index) {
            SplittableRandom rnd = new SplittableRandom(seed * 7919 + index);
            List<RegionLoad> out = new ArrayList<>();
            for (RegionLoad r : m.regions()) {
                int j = rnd.nextInt(capacity.length);
                out.add(new RegionLoad(r.region().onNode("n" + j), m.cpuOn(r, j), r.disk()));
            }
            return out;
        }

        private Region region(int i, String node) {
            return new Region("r" + i, "t", new KeyRange(String.format("%08x", i * 1000), String.format("%08x", i * 1000 + 999)),
                    node, 1e6, counters.get(i));
        }

        private static int index(String node) {
            return Integer.parseInt(node.substring(1));
        }
    }
}
