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
}
