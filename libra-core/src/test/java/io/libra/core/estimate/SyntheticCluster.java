package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * Windows of a synthetic cluster whose node totals follow a known cost: the same regions,
 * placed at random anew each window, with value sizes spread over all read size classes.
 */
final class SyntheticCluster {
    private static final double[] READ_SIZES = {300, 1500, 20_000, 250_000};
    private final List<RegionCounters> regions = new ArrayList<>();
    private final int nodes;

    SyntheticCluster(int nodes, int regionCount, long seed) {
        this.nodes = nodes;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < regionCount; i++) {
            double reads = rnd.nextDouble(0, 1000);
            double readSize = READ_SIZES[rnd.nextInt(READ_SIZES.length)] * rnd.nextDouble(0.8, 1.25);
            double writes = rnd.nextDouble(0, 500);
            double writeSize = rnd.nextDouble(100, 4000);
            regions.add(new RegionCounters(reads, writes, reads * readSize, writes * writeSize));
        }
    }

    /**
     * One window: every region on a random node; each node measures its regions' true cost plus
     * {@code background}, times (1 ± noise).
     */
    ClusterSnapshot window(int index, long seed, ToDoubleFunction<RegionCounters> cpu, ToDoubleFunction<RegionCounters> disk,
                           double background, double noise) {
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + index);
        double[] nodeCpu = new double[nodes];
        double[] nodeDisk = new double[nodes];
        List<Region> placed = new ArrayList<>();
        for (int i = 0; i < regions.size(); i++) {
            int j = rnd.nextInt(nodes);
            RegionCounters c = regions.get(i);
            nodeCpu[j] += cpu.applyAsDouble(c);
            nodeDisk[j] += disk.applyAsDouble(c);
            String start = String.format("%08x", i * 1000);
            String end = String.format("%08x", i * 1000 + 999);
            placed.add(new Region("r" + i, "t", new KeyRange(start, end), "n" + j, 1e6, c));
        }
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < nodes; j++) {
            double f = 1 + noise * rnd.nextDouble(-1, 1);
            ns.add(new Node("n" + j, 1000, (nodeCpu[j] + background) * f, (nodeDisk[j] + background * 1e6) * f));
        }
        return new ClusterSnapshot("hbase", Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * index), 60, ns, placed);
    }

    /** A cost that is far from the paper's: small reads are cached, large reads miss and cost 4× their bytes. */
    static double cachedDisk(RegionCounters c) {
        double mean = c.readOps() > 0 ? c.readBytes() / c.readOps() : 0;
        double reads = mean < 4096 ? c.readOps() * 200 : c.readBytes() * (mean > 65536 ? 4 : 1.5);
        return reads + c.writeBytes() * 5 + c.writeOps() * 300;
    }

    /** CPU that grows with bytes as well as with requests. */
    static double byteCpu(RegionCounters c) {
        return c.readOps() * 40e-6 + c.writeOps() * 90e-6 + (c.readBytes() + c.writeBytes()) * 4e-9;
    }
}
