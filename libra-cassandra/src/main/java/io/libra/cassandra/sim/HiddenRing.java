package io.libra.cassandra.sim;

import io.libra.cassandra.collect.KeyspaceReplication;
import io.libra.cassandra.collect.Window;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.NodeSpec;
import io.libra.core.sim.NodeTruth;
import io.libra.core.sim.Placement;
import io.libra.core.sim.RegionTraffic;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import io.libra.core.sim.SimCluster;
import io.libra.core.sim.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A single-token Cassandra ring as the simulator knows it and the sidecar never sees: each node's
 * token, a workload over the hashed key space, and core's hidden {@link CostModel}. Every replica of
 * a range stores its data and applies its writes; reads at consistency ONE are spread evenly over
 * the replicas. The sidecar sees only what JMX would give it ({@link #window}): node CPU and disk
 * with measurement noise, per-table request counts and bytes, and a burst of partition samples.
 */
final class HiddenRing {
    static final String KEYSPACE = "ks";
    static final String TABLE = "usertable";
    /** Equal slices of the token space the truth is summed over (a node's cache is shared among them). */
    private static final int SLICES = 512;
    /** Hottest cells each node's partition sampler reports per window (the sampler's capacity). */
    private static final int SAMPLED_CELLS = 256;
    private static final double SAMPLE_SECONDS = 10;
    private static final double TWO_63 = 9.223372036854775808E18;

    private final List<NodeSpec> specs;
    private final CostModel cost;
    private final int rf;
    private final Map<String, Long> tokens = new TreeMap<>();
    private Workload workload;

    /** @param cost the hidden model, its own replication unused: this ring places every replica itself */
    HiddenRing(List<NodeSpec> specs, CostModel cost, int rf, Workload hashed, SplittableRandom rnd) {
        this.specs = List.copyOf(specs);
        this.cost = cost.withReplication(1);
        this.rf = Math.min(rf, specs.size());
        this.workload = hashed;
        for (NodeSpec s : specs) {
            long t;
            do {
                t = rnd.nextLong();
            } while (t == Long.MIN_VALUE || tokens.containsValue(t));
            tokens.put(s.id(), t);
        }
    }

    /** A workload over key order as the ring sees it: Murmur3 scatters neighbouring keys, so its cells are shuffled. */
    static Workload hashed(Workload w, SplittableRandom rnd) {
        int n = w.cells();
        double[] share = w.opsShare().clone();
        double[] value = w.valueBytes().clone();
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            double s = share[i];
            share[i] = share[j];
            share[j] = s;
            double v = value[i];
            value[i] = value[j];
            value[j] = v;
        }
        return new Workload(share, value, w.totalOps(), w.mix(), w.dataBytes(), w.hotFraction());
    }

    /**
     * Scales the workload so the ring's mean CPU utilisation is the scenario's target, or less where
     * the busiest node would pass the peak ({@link Scenario#TARGET_CPU_UTILISATION},
     * {@link Scenario#MAX_PEAK_UTILISATION}), as the region simulator calibrates its clusters.
     */
    void calibrate() {
        double cores = specs.stream().mapToDouble(NodeSpec::cpuCores).sum();
        double fixed = cpuAt(0);
        double perKilo = cpuAt(1000) - fixed;
        double ops = 1000 * (Scenario.TARGET_CPU_UTILISATION * cores - fixed) / perKilo;
        workload = workload.withTotalOps(ops);
        double peak = score().peakUtilisation();
        if (peak > Scenario.MAX_PEAK_UTILISATION) {
            workload = workload.withTotalOps(ops * Scenario.MAX_PEAK_UTILISATION / peak);
        }
    }

    private double cpuAt(double ops) {
        workload = workload.withTotalOps(ops);
        return truth().stream().mapToDouble(NodeTruth::cpu).sum();
    }

    void workload(Workload w) {
        workload = w;
    }

    Workload workload() {
        return workload;
    }

    Map<String, Long> tokens() {
        return Map.copyOf(tokens);
    }

    /** Carries out a token move; false (and nothing changes) when the node does not hold {@code from} or {@code to} is taken. */
    boolean move(String node, long from, long to) {
        Long now = tokens.get(node);
        if (now == null || now != from || tokens.containsValue(to)) {
            return false;
        }
        tokens.put(node, to);
        return true;
    }

    /** The true load of each node over a window. */
    List<NodeTruth> truth() {
        Sorted ring = Sorted.of(tokens, rf);
        List<Placement> placements = new ArrayList<>();
        for (int k = 0; k < SLICES; k++) {
            double x0 = (double) k / SLICES;
            double x1 = (double) (k + 1) / SLICES;
            RegionTraffic t = workload.traffic("s" + k, x0, x1);
            RegionTraffic replica = new RegionTraffic(t.id(), t.readOps() / rf, t.writeOps(), t.scanOps() / rf,
                    t.rowsPerScan(), t.meanValueBytes(), t.sizeBytes(), t.hotBytes());
            for (String node : ring.replicas(token((x0 + x1) / 2))) {
                placements.add(new Placement(replica, node));
            }
        }
        return cost.truth(specs, placements);
    }

    Score score() {
        return CostModel.score(specs, truth());
    }

    /** Bytes streamed to new replicas were the ring to go from {@code before} to the tokens now. */
    double streamedSince(Map<String, Long> before) {
        Sorted was = Sorted.of(before, rf);
        Sorted now = Sorted.of(tokens, rf);
        double bytes = 0;
        for (int k = 0; k < SLICES; k++) {
            long at = token((k + 0.5) / SLICES);
            Set<String> had = new HashSet<>(was.replicas(at));
            for (String n : now.replicas(at)) {
                if (!had.contains(n)) {
                    bytes += workload.dataBytes() / SLICES;
                }
            }
        }
        return bytes;
    }

    /**
     * What the sidecar's collector would gather over one window ending at {@code end}: node CPU and
     * disk with measurement noise; per node the table's reads/s, writes/s and live bytes, exact as
     * JMX counts them; and each node's hottest cells over a short sampling burst, with counting noise.
     */
    Window window(Instant end, double seconds, SplittableRandom noise) {
        List<NodeTruth> truth = truth();
        Sorted ring = Sorted.of(tokens, rf);
        Map<String, Local> local = new TreeMap<>();
        specs.forEach(s -> local.put(s.id(), new Local()));
        int cells = workload.cells();
        for (int c = 0; c < cells; c++) {
            RegionTraffic t = workload.traffic("", (double) c / cells, (c + 1.0) / cells);
            double[] cell = {c, (t.readOps() + t.scanOps()) / rf, t.writeOps(), t.writeBytes()};
            ring.replicas(token((c + 0.5) / cells)).forEach(n -> local.get(n).add(cell));
        }
        List<Window.NodeStat> nodes = new ArrayList<>();
        List<Window.TableStat> tables = new ArrayList<>();
        List<Window.KeySample> samples = new ArrayList<>();
        double requests = 0;
        for (int j = 0; j < specs.size(); j++) {
            NodeSpec s = specs.get(j);
            double cpu = Math.min(s.cpuCores(), truth.get(j).cpu() * (1 + SimCluster.CPU_NOISE * noise.nextGaussian()));
            double disk = truth.get(j).disk() * (1 + SimCluster.DISK_NOISE * noise.nextGaussian());
            nodes.add(new Window.NodeStat(s.id(), "127.0.0." + (j + 1), true, null, (int) Math.round(s.cpuCores()),
                    Math.max(0, cpu), Math.max(0, disk), "proc", List.of(tokens.get(s.id())), "NORMAL", 1000 + j, "dc1",
                    "rack1"));
            Local l = local.get(s.id());
            tables.add(new Window.TableStat(KEYSPACE, TABLE, rf, s.id(), l.reads, l.writes,
                    workload.dataBytes() * l.cells.size() / cells));
            samples.addAll(l.sampled(s.id(), cells, noise));
            requests += (l.reads + l.writes) * seconds;
        }
        long sampled = samples.stream().mapToLong(k -> k.reads() + k.writes()).sum();
        return new Window(end.minusSeconds((long) seconds), end, seconds, nodes, tables, samples, sampled,
                (long) requests, List.of(), List.of(KeyspaceReplication.parse(KEYSPACE,
                        KeyspaceReplication.SIMPLE + " {replication_factor=" + rf + "}")));
    }

    /** One node's share of the table: its reads/s (1/rf of each cell's), writes/s, and the cells it holds. */
    private static final class Local {
        private final List<double[]> cells = new ArrayList<>(); // {cell, reads/s, writes/s, bytes written/s}
        private double reads;
        private double writes;

        void add(double[] cell) {
            cells.add(cell);
            reads += cell[1];
            writes += cell[2];
        }

        /**
         * The cells the samplers list over their burst, each at the cell's middle token: the hottest
         * by requests (the READS and WRITES samplers) with their counts, and the most written bytes
         * (WRITE_SIZE) with those.
         */
        List<Window.KeySample> sampled(String node, int cellCount, SplittableRandom noise) {
            Map<Integer, long[]> listed = new TreeMap<>();
            for (double[] h : top(h -> h[1] + h[2])) {
                long[] c = listed.computeIfAbsent((int) h[0], k -> new long[3]);
                c[0] = counted(h[1] * SAMPLE_SECONDS, noise);
                c[1] = counted(h[2] * SAMPLE_SECONDS, noise);
            }
            for (double[] h : top(h -> h[3])) {
                double perWrite = h[2] > 0 ? h[3] / h[2] : 0; // a count's noise, at the cell's value size
                listed.computeIfAbsent((int) h[0], k -> new long[3])[2] =
                        Math.round(counted(h[2] * SAMPLE_SECONDS, noise) * perWrite);
            }
            List<Window.KeySample> out = new ArrayList<>();
            listed.forEach((cell, c) -> {
                if (c[0] + c[1] + c[2] > 0) {
                    out.add(new Window.KeySample(KEYSPACE, TABLE, node, token((cell + 0.5) / cellCount), c[0], c[1], c[2]));
                }
            });
            return out;
        }

        /** The sampler's capacity of cells, highest {@code by} first. */
        private List<double[]> top(java.util.function.ToDoubleFunction<double[]> by) {
            List<double[]> hot = new ArrayList<>(cells);
            hot.sort(Comparator.comparingDouble(by).reversed());
            return hot.subList(0, Math.min(SAMPLED_CELLS, hot.size()));
        }
    }

    private static long counted(double mean, SplittableRandom noise) {
        return Math.max(0, Math.round(mean + Math.sqrt(mean) * noise.nextGaussian()));
    }

    /** The ring in token order, for SimpleStrategy's replicas of a token. */
    private record Sorted(String[] ids, long[] tokens, int rf) {
        static Sorted of(Map<String, Long> ring, int rf) {
            List<Map.Entry<String, Long>> e = new ArrayList<>(ring.entrySet());
            e.sort(Map.Entry.comparingByValue());
            return new Sorted(e.stream().map(Map.Entry::getKey).toArray(String[]::new),
                    e.stream().mapToLong(Map.Entry::getValue).toArray(), rf);
        }

        /** The node whose token is the first at or after {@code token} (wrapping), then the next rf − 1 clockwise. */
        List<String> replicas(long token) {
            int i = java.util.Arrays.binarySearch(tokens, token);
            int first = i >= 0 ? i : -i - 1;
            List<String> out = new ArrayList<>(rf);
            for (int k = 0; k < rf; k++) {
                out.add(ids[(first + k) % ids.length]);
            }
            return out;
        }
    }

    /** The token at position x of [0, 1) of the token space. */
    static long token(double x) {
        double t = x * 2 * TWO_63 - TWO_63;
        return t >= TWO_63 ? Long.MAX_VALUE : Math.max(Long.MIN_VALUE + 1, (long) t);
    }
}
