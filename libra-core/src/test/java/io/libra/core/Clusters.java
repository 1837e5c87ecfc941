package io.libra.core;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Hand-built and generated clusters for tests. Node figures follow a simple hidden cost model. */
public final class Clusters {
    public static final double CPU_PER_READ = 1e-4;
    public static final double CPU_PER_WRITE = 1.63e-4;

    private Clusters() {
    }

    public static String key(int i) {
        return String.format("%08x", i);
    }

    /** A region whose counters are given directly. */
    public static Region region(int i, String node, double readOps, double writeOps, double readBytes, double writeBytes) {
        KeyRange range = new KeyRange(i == 0 ? "" : key(i), key(i + 1));
        return new Region("r" + i, "t", range, node, 1e6, new RegionCounters(readOps, writeOps, readBytes, writeBytes));
    }

    /** Node figures consistent with the default metric mapping (c = 1.63, 4 KiB read floor, 3× writes). */
    public static ClusterSnapshot snapshot(int nodes, List<Region> regions) {
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < nodes; j++) {
            String id = "n" + j;
            double cpu = 0;
            double disk = 0;
            for (Region r : regions) {
                if (r.node().equals(id)) {
                    cpu += CPU_PER_READ * r.counters().readOps() + CPU_PER_WRITE * r.counters().writeOps();
                    disk += io.libra.core.estimate.DiskCostModel.DEFAULT.cost(r.counters());
                }
            }
            ns.add(new Node(id, 64, cpu, disk));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, regions);
    }

    /**
     * Four nodes of ten equal regions (r0-r39, 100 reads/s of 100 bytes each) and r40 with {@code extra}
     * reads/s on {@code node}: with 100 reads on it Δ ≈ 0.07, with 400 Δ ≈ 0.27.
     */
    public static ClusterSnapshot tenEachAndOneMore(String node, double extra) {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            regions.add(region(i, "n" + (i / 10), 100, 0, 100 * 100, 0));
        }
        regions.add(region(40, node, extra, 0, extra * 100, 0));
        return snapshot(4, regions);
    }

    /**
     * A dual-imbalanced cluster: hot regions of tiny values (CPU) and regions of large values
     * (disk), placed so that CPU and disk hot spots sit on different nodes.
     */
    public static ClusterSnapshot dualImbalanced(int nodes, int regionsPerNode, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Region> regions = new ArrayList<>();
        int i = 0;
        for (int j = 0; j < nodes; j++) {
            for (int k = 0; k < regionsPerNode; k++, i++) {
                double hot = Math.exp(-3.0 * rnd.nextDouble()) * (j == 0 ? 3 : 1);
                double valueSize = j == 1 ? 64_000 * (0.5 + rnd.nextDouble()) : 100 + 900 * rnd.nextDouble();
                double ops = 200 * hot * (j == 1 ? 0.3 : 1);
                regions.add(region(i, "n" + j, ops * 0.5, ops * 0.5, ops * 0.5 * valueSize, ops * 0.5 * valueSize));
            }
        }
        return snapshot(nodes, regions);
    }

    /** Four nodes of ten regions each, 100 reads and 10 writes apiece; r0, twice as hot, on {@code r0At}; captured {@code second}s after the epoch. */
    public static ClusterSnapshot hotRegionOn(String r0At, long second) {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            double reads = i == 0 ? 200 : 100;
            regions.add(region(i, i == 0 ? r0At : "n" + (i / 10), reads, 10, reads * 100, 10 * 100));
        }
        ClusterSnapshot s = snapshot(4, regions);
        return new ClusterSnapshot(s.store(), s.capturedAt().plusSeconds(second), s.windowSeconds(), s.nodes(), s.regions());
    }
}
