package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Disk speeds of the nodes' own learnt under a block cache, over windows in which regions moved. */
class CacheSpeedsTest {
    private static final int NODES = 12;
    private final Estimator estimator = new Estimator(EstimationConfig.DEFAULT);

    /** Node j's disk runs at 0.7 to 1.4 times the work, as in `libra loop --truth disk-speed`. */
    private static double speed(int j) {
        return 0.7 + 0.7 * j / (NODES - 1);
    }

    private static double meanSpeed() {
        double s = 0;
        for (int j = 0; j < NODES; j++) {
            s += speed(j) / NODES;
        }
        return s;
    }

    /** Three windows of the hidden cache, the regions dealt again for each, each node's disk times {@code slowed(j)}. */
    private static List<ClusterSnapshot> windows(boolean slowed) {
        List<Region> first = CacheModelTest.regions(NODES, 20, 1);
        List<ClusterSnapshot> out = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            List<Region> layout = w == 0 ? first : CacheModelTest.movedAsIn(first, CacheModelTest.regions(NODES, 20, 1 + w));
            ClusterSnapshot s = CacheModelTest.measured(NODES, layout, 60L * w, CacheModelTest.TRUTH);
            out.add(slowed ? s.withState(s.nodes().stream()
                    .map(n -> n.withMeasured(n.cpuUsage(), n.diskBytesPerSec() * speed(index(n)))).toList(), layout) : s);
        }
        return out;
    }

    private static int index(Node n) {
        return Integer.parseInt(n.id().substring(1));
    }

    private Estimator.Estimate estimate(List<ClusterSnapshot> windows) {
        return estimator.estimate(windows.get(windows.size() - 1), windows.subList(0, windows.size() - 1));
    }

    @Test
    void learnsEachNodesDiskSpeedWithTheCacheOverWindowsInWhichRegionsMoved() {
        Estimator.Estimate e = estimate(windows(true));
        assertThat(e.cache()).as("the cache, refitted with the speeds out").isPresent();
        for (int j = 0; j < NODES; j++) {
            assertThat(e.diskOwn().speed("n" + j)).as("n" + j).isCloseTo(speed(j) / meanSpeed(), Offset.offset(0.03));
        }
        assertThat(e.estimation().detail()).contains("a disk speed of its own on each of 12 nodes");
    }

    /** A region moved onto a slow disk costs it that disk's factor: the forecast of a new layout holds within 3%. */
    @Test
    void forecastsALayoutNoWindowShowedAtEachDisksSpeed() {
        Estimator.Estimate e = estimate(windows(true));
        List<Region> moved = CacheModelTest.movedAsIn(CacheModelTest.regions(NODES, 20, 1), CacheModelTest.regions(NODES, 20, 9));
        ClusterSnapshot truth = CacheModelTest.measured(NODES, moved, 600, CacheModelTest.TRUTH);
        LoadModel forecast = e.model().withRegions(relocated(e.model(), moved));
        for (Node n : truth.nodes()) {
            double measured = n.diskBytesPerSec() * speed(index(n));
            assertThat(forecast.load(forecast.nodeIndex(n.id()), io.libra.core.model.Dimension.DISK)).as(n.id())
                    .isCloseTo(measured, org.assertj.core.data.Percentage.withPercentage(3));
        }
    }

    /** The estimate's region loads, each where {@code layout} puts it, at the speed of its new disk. */
    private static List<RegionLoad> relocated(LoadModel m, List<Region> layout) {
        java.util.Map<String, String> to = new java.util.HashMap<>();
        layout.forEach(r -> to.put(r.id(), r.node()));
        List<RegionLoad> out = new ArrayList<>();
        for (RegionLoad r : m.regions()) {
            int dst = m.nodeIndex(to.get(r.id()));
            out.add(new RegionLoad(r.region().onNode(to.get(r.id())), m.cpuOn(r, dst), m.diskOn(r, dst)));
        }
        return out;
    }

    @Test
    void learnsNoSpeedsWhereEveryDiskRunsAlike() {
        Estimator.Estimate e = estimate(windows(false));
        assertThat(e.diskOwn().speeds()).isEmpty();
    }

    @Test
    void oneWindowCannotTellASpeedFromTheCachesErrorAndLearnsNone() {
        List<ClusterSnapshot> one = windows(true).subList(2, 3);
        assertThat(estimate(one).diskOwn().speeds()).isEmpty();
    }
}
