package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostModelTest {
    private final CostModel model = CostModel.DEFAULT;
    private final List<NodeSpec> nodes = List.of(new NodeSpec("a", 8, 500e6, 1e9), new NodeSpec("b", 8, 500e6, 1e9),
            new NodeSpec("c", 8, 500e6, 1e9));

    @Test
    void writeCostsTheWriteRatioOfARead() {
        RegionTraffic reads = RegionTraffic.pointOps("r", 1000, 0, 0, 0, 0);
        RegionTraffic writes = RegionTraffic.pointOps("w", 0, 1000, 0, 0, 0);
        double overhead = model.regionCpuOverhead();
        assertThat((model.leaderCpu(writes) - overhead - model.writtenDiskBytes(writes) * model.compactionCpuSecondsPerByte())
                / (model.leaderCpu(reads) - overhead)).isCloseTo(1.63, within(1e-9));
    }

    @Test
    void readsAreBlockGranularAndCacheAbsorbsThem() {
        RegionTraffic small = RegionTraffic.pointOps("s", 100, 0, 100, 1e9, 1e8);
        assertThat(model.readBlockBytes(small)).isEqualTo(100 * 4096.0);
        assertThat(model.leaderDisk(small, 0.5)).isEqualTo(50 * 4096.0);
        assertThat(model.hitRatio(small, 2e9)).isEqualTo(model.maxCacheHitRatio());
    }

    @Test
    void followersLoadTheOtherNodesEvenly() {
        RegionTraffic w = RegionTraffic.pointOps("w", 0, 1000, 1024, 1e8, 1e7);
        Score s = model.score(nodes, List.of(w), Map.of("w", "a"));
        double copy = model.writtenDiskBytes(w);
        assertThat(s.nodes().get(0).disk()).isCloseTo(copy, within(1e-6));
        assertThat(s.nodes().get(1).disk()).isCloseTo(copy, within(1e-6));
        assertThat(s.nodes().get(2).disk()).isCloseTo(copy, within(1e-6));
        assertThat(s.diskMaxOverMean()).isCloseTo(1.0, within(1e-9));
        assertThat(s.cpuMaxOverMean()).isGreaterThan(1.0);
    }

    @Test
    void coLocatedReadHotRegionsShareTheCache() {
        RegionTraffic r1 = RegionTraffic.pointOps("r1", 1000, 0, 1024, 1e9, 8e8);
        RegionTraffic r2 = RegionTraffic.pointOps("r2", 1000, 0, 1024, 1e9, 8e8);
        double apart = model.score(nodes, List.of(r1, r2), Map.of("r1", "a", "r2", "b")).nodes().get(0).disk();
        double together = model.score(nodes, List.of(r1, r2), Map.of("r1", "a", "r2", "a")).nodes().get(0).disk();
        assertThat(together).isGreaterThan(2 * apart);
    }

    @Test
    void underVirtualIopsAReadOfManyBlocksCostsFewerPerBlock() {
        RegionTraffic large = RegionTraffic.pointOps("l", 100, 0, 16 * 4096, 1e9, 1e8);
        assertThat(model.readBlockBytes(large)).isEqualTo(100 * 16 * 4096.0);
        assertThat(model.withForm(CostModel.Form.VIRTUAL_IOPS).readBlockBytes(large))
                .isCloseTo(100 * Math.pow(16, 0.7) * 4096, within(1e-6));
    }

    @Test
    void underContentionTwiceTheWorkCostsMoreThanTwiceTheCpu() {
        RegionTraffic r1 = RegionTraffic.pointOps("r1", 20000, 0, 1024, 1e9, 8e8);
        RegionTraffic r2 = RegionTraffic.pointOps("r2", 20000, 0, 1024, 1e9, 8e8);
        for (CostModel.Form f : List.of(CostModel.Form.BLOCKS, CostModel.Form.CONTENTION)) {
            CostModel m = model.withForm(f);
            double one = m.score(nodes, List.of(r1, r2), Map.of("r1", "a", "r2", "b")).nodes().get(0).cpu() - m.nodeBaseCpu();
            double two = m.score(nodes, List.of(r1, r2), Map.of("r1", "a", "r2", "a")).nodes().get(0).cpu() - m.nodeBaseCpu();
            if (f == CostModel.Form.BLOCKS) {
                assertThat(two / one).isCloseTo(2, within(1e-9));
            } else {
                assertThat(two / one).isGreaterThan(2.1);
            }
        }
    }

    @Test
    void underNodeSpeedTheSameWorkCostsEachNodeItsOwnCpu() {
        RegionTraffic r = RegionTraffic.pointOps("r", 20000, 0, 1024, 1e9, 8e8);
        CostModel m = model.withForm(CostModel.Form.NODE_SPEED);
        double onA = m.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0).cpu();
        double onB = m.score(nodes, List.of(r), Map.of("r", "b")).nodes().get(1).cpu();
        assertThat(model.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0).cpu())
                .isCloseTo(model.score(nodes, List.of(r), Map.of("r", "b")).nodes().get(1).cpu(), within(1e-12));
        assertThat(onA / onB).isBetween(0.5, 2.0).isNotCloseTo(1.0, within(0.01));
    }

    @Test
    void underDiskSpeedTheSameWorkCostsEachNodeItsOwnDiskAndTheSameCpu() {
        RegionTraffic r = RegionTraffic.pointOps("r", 20000, 0, 1024, 1e9, 8e8);
        CostModel m = model.withForm(CostModel.Form.DISK_SPEED);
        NodeTruth onA = m.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0);
        NodeTruth onB = m.score(nodes, List.of(r), Map.of("r", "b")).nodes().get(1);
        assertThat(model.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0).disk())
                .isCloseTo(model.score(nodes, List.of(r), Map.of("r", "b")).nodes().get(1).disk(), within(1e-6));
        assertThat(onA.cpu()).isCloseTo(onB.cpu(), within(1e-12));
        assertThat(onA.disk() / onB.disk()).isBetween(0.5, 2.0).isNotCloseTo(1.0, within(0.01));
    }

    @Test
    void underDiskContentionABusyNodePaysMorePerByteThanAnIdleOne() {
        RegionTraffic r = RegionTraffic.pointOps("r", 20000, 0, 8192, 1e9, 8e9);
        RegionTraffic s = RegionTraffic.pointOps("s", 20000, 0, 8192, 1e9, 8e9);
        CostModel m = model.withForm(CostModel.Form.DISK_CONTENTION);
        double alone = m.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0).disk();
        double together = m.score(nodes, List.of(r, s), Map.of("r", "a", "s", "a")).nodes().get(0).disk();
        double work = model.score(nodes, List.of(r), Map.of("r", "a")).nodes().get(0).disk();
        double both = model.score(nodes, List.of(r, s), Map.of("r", "a", "s", "a")).nodes().get(0).disk();
        assertThat(alone).isCloseTo(work * (1 + work / 500e6), within(1e-3));
        assertThat(together).isCloseTo(both * (1 + both / 500e6), within(1e-3));
        assertThat(together / both).isGreaterThan(alone / work + 0.1);
    }

    /** Node a's truth with a hot region on it and a large cold one on {@code coldAt}. */
    private NodeTruth hotBesideCold(CostModel m, String coldAt) {
        RegionTraffic hot = RegionTraffic.pointOps("hot", 20000, 0, 1024, 1e9, 8e8);
        RegionTraffic cold = RegionTraffic.pointOps("cold", 0, 0, 1024, 8e9, 0);
        return m.score(nodes, List.of(hot, cold), Map.of("hot", "a", "cold", coldAt)).nodes().get(0);
    }

    @Test
    void underDataSizeAHotRegionCostsMoreDiskBesideALargeColdOne() {
        CostModel m = model.withForm(CostModel.Form.DATA_SIZE);
        double beside = hotBesideCold(m, "a").disk();
        double apart = hotBesideCold(m, "b").disk();
        double work = hotBesideCold(model, "b").disk();
        // data per node over the mean: 3 on a with both, 3 × 1/9 with the cold one on b
        assertThat(beside).isCloseTo(work * Math.sqrt(3), within(1e-3));
        assertThat(apart).isCloseTo(work * Math.sqrt(1.0 / 3), within(1e-3));
    }

    @Test
    void underDataCpuAHotRegionCostsMoreCpuBesideALargeColdOne() {
        CostModel m = model.withForm(CostModel.Form.DATA_CPU);
        double work = hotBesideCold(model, "b").cpu() - model.nodeBaseCpu();
        double coldWork = model.regionCpuOverhead();
        // as under data-size, in CPU: the node's work (the cold region's upkeep too when beside it) times √(data share)
        assertThat(hotBesideCold(m, "a").cpu() - model.nodeBaseCpu()).isCloseTo((work + coldWork) * Math.sqrt(3), within(1e-9));
        assertThat(hotBesideCold(m, "b").cpu() - model.nodeBaseCpu()).isCloseTo(work * Math.sqrt(1.0 / 3), within(1e-9));
        assertThat(hotBesideCold(m, "a").disk()).as("disk keeps its shape").isCloseTo(hotBesideCold(model, "a").disk(),
                within(1e-6));
    }

    @Test
    void underReadAmpAReadCostsMoreDiskTheLargerTheRegionsShareOfWrites() {
        RegionTraffic readsOnly = RegionTraffic.pointOps("r", 1000, 0, 100, 1e9, 1e12);
        RegionTraffic mixed = RegionTraffic.pointOps("m", 1000, 1000, 100, 1e9, 1e12);
        CostModel m = model.withForm(CostModel.Form.READ_AMP);
        double hit = 0.5;
        assertThat(m.leaderDisk(readsOnly, hit)).isEqualTo(model.leaderDisk(readsOnly, hit));
        double reads = model.readBlockBytes(mixed) * (1 - hit);
        // half the requests are writes: a read goes through 1 + (4 - 1) / 2 times the blocks
        assertThat(m.leaderDisk(mixed, hit)).isCloseTo(reads * 2.5 + model.writtenDiskBytes(mixed), within(1e-6));
    }

    @Test
    void formsAreNamedAsOnTheCommandLine() {
        assertThat(CostModel.Form.byName("node-speed")).contains(CostModel.Form.NODE_SPEED);
        assertThat(CostModel.Form.byName("disk-speed")).contains(CostModel.Form.DISK_SPEED);
        assertThat(CostModel.Form.byName("disk-contention")).contains(CostModel.Form.DISK_CONTENTION);
        assertThat(CostModel.Form.byName("data-size")).contains(CostModel.Form.DATA_SIZE);
        assertThat(CostModel.Form.byName("data-cpu")).contains(CostModel.Form.DATA_CPU);
        assertThat(CostModel.Form.byName("read-amp")).contains(CostModel.Form.READ_AMP);
        assertThat(CostModel.Form.byName("NODE_SPEED")).isEmpty();
    }
}
