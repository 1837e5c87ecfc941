package io.libra.core.schedule;

import io.libra.core.estimate.DiskCostModel;
import io.libra.core.model.Capacity;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generated clusters: random sizes, skews, value sizes and read/write mixes; CPU and disk rarely line up. */
final class ClusterArbitraries {
    private ClusterArbitraries() {
    }

    /** Any cluster: 2–12 nodes, 1–40 regions each, some with key histograms, a third with node capacities. */
    static Arbitrary<ClusterSnapshot> clusters() {
        return Combinators.combine(Arbitraries.integers().between(2, 12), Arbitraries.integers().between(1, 40),
                Arbitraries.longs()).as((n, per, seed) -> build(n, per, seed, 0.0));
    }

    /** Clusters of many similar-sized regions (load per region within 5:1), for Theorem 1. */
    static Arbitrary<ClusterSnapshot> fineGrained() {
        return Combinators.combine(Arbitraries.integers().between(2, 10), Arbitraries.integers().between(20, 60),
                Arbitraries.longs()).as((n, per, seed) -> build(n, per, seed, 0.2));
    }

    static ClusterSnapshot build(int nodes, int perNode, long seed, double minHotness) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Region> regions = new ArrayList<>();
        int i = 0;
        for (int j = 0; j < nodes; j++) {
            double nodeSkew = 0.3 + 2 * rnd.nextDouble();
            int count = 1 + rnd.nextInt(perNode);
            for (int k = 0; k < count; k++, i++) {
                regions.add(region(i, "n" + j, rnd, nodeSkew, minHotness));
            }
        }
        return snapshot(nodes, regions, rnd, minHotness == 0);
    }

    private static Region region(int i, String node, SplittableRandom rnd, double skew, double minHotness) {
        double hot = minHotness > 0 ? minHotness + (1 - minHotness) * rnd.nextDouble()
                : Math.exp(-4 * rnd.nextDouble()) * skew;
        double ops = 1000 * hot;
        double writeShare = rnd.nextDouble();
        double valueSize = rnd.nextBoolean() ? 50 + rnd.nextInt(500) : 8_000 + rnd.nextInt(60_000);
        RegionCounters c = new RegionCounters(ops * (1 - writeShare), ops * writeShare,
                ops * (1 - writeShare) * valueSize, ops * writeShare * valueSize);
        String start = i == 0 ? "" : String.format("%08x", i * 16);
        String end = String.format("%08x", (i + 1) * 16);
        List<KeyBucket> histogram = rnd.nextBoolean() ? histogram(i, c, rnd) : List.of();
        return new Region("r" + i, "t", new KeyRange(start, end), node, 1e6 * (1 + rnd.nextInt(100)), c, histogram, null);
    }

    private static List<KeyBucket> histogram(int i, RegionCounters c, SplittableRandom rnd) {
        List<KeyBucket> buckets = new ArrayList<>();
        double[] w = new double[4];
        double total = 0;
        for (int b = 0; b < 4; b++) {
            w[b] = 0.05 + rnd.nextDouble();
            total += w[b];
        }
        for (int b = 0; b < 4; b++) {
            buckets.add(new KeyBucket(String.format("%08x", i * 16 + (b + 1) * 4), c.scaled(w[b] / total)));
        }
        return buckets;
    }

    /** Node figures from a hidden cost model with per-node efficiency noise, as measured by an OS. */
    private static ClusterSnapshot snapshot(int nodes, List<Region> regions, SplittableRandom rnd) {
        return snapshot(nodes, regions, rnd, true);
    }

    private static ClusterSnapshot snapshot(int nodes, List<Region> regions, SplittableRandom rnd, boolean mayVary) {
        double[] cpu = new double[nodes];
        double[] disk = new double[nodes];
        for (Region r : regions) {
            int j = Integer.parseInt(r.node().substring(1));
            cpu[j] += 1e-4 * r.counters().readOps() + 1.7e-4 * r.counters().writeOps();
            disk[j] += DiskCostModel.DEFAULT.cost(r.counters());
        }
        List<Node> ns = new ArrayList<>();
        boolean heterogeneous = mayVary && rnd.nextInt(3) == 0;
        for (int j = 0; j < nodes; j++) {
            double noise = 0.9 + 0.2 * rnd.nextDouble();
            Capacity cap = heterogeneous ? new Capacity(1 + rnd.nextInt(4), 1e8 * (1 + rnd.nextInt(4))) : null;
            ns.add(new Node("n" + j, 1024, cpu[j] * noise, disk[j] * noise, cap));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, regions);
    }
}
