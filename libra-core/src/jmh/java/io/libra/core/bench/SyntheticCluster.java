package io.libra.core.bench;

import io.libra.core.estimate.DiskCostModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic dual-imbalanced clusters of any size for benchmarks: Mixgraph-like key-range
 * hotness, small values on some regions (CPU), large values on others (disk), placed at random.
 */
public final class SyntheticCluster {
    private SyntheticCluster() {
    }

    public static ClusterSnapshot of(int nodes, int regions, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] cpu = new double[nodes];
        double[] disk = new double[nodes];
        List<Region> rs = new ArrayList<>(regions);
        for (int i = 0; i < regions; i++) {
            int node = rnd.nextInt(nodes);
            double x = rnd.nextDouble();
            double hot = 14.18 * Math.exp(-2.917 * x) + 0.0164 * Math.exp(-0.08082 * x);
            double ops = 50 * hot * (0.5 + rnd.nextDouble());
            double value = rnd.nextInt(4) == 0 ? 16_384 + rnd.nextInt(65_536) : 64 + rnd.nextInt(1024);
            double writeShare = rnd.nextDouble();
            RegionCounters c = new RegionCounters(ops * (1 - writeShare), ops * writeShare,
                    ops * (1 - writeShare) * value, ops * writeShare * value);
            KeyRange range = new KeyRange(i == 0 ? "" : String.format("%08x", i), String.format("%08x", i + 1));
            rs.add(new Region("r" + i, "t", range, "n" + node, 1e6 + rnd.nextInt(100_000_000), c));
            cpu[node] += 1e-4 * c.readOps() + 1.63e-4 * c.writeOps();
            disk[node] += DiskCostModel.DEFAULT.cost(c);
        }
        List<Node> ns = new ArrayList<>(nodes);
        for (int j = 0; j < nodes; j++) {
            ns.add(new Node("n" + j, 1e6, cpu[j], disk[j]));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, rs);
    }
}
