package io.libra.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The simulator's hidden per-request cost model: how much CPU and disk a region's traffic really
 * costs on the node that serves it. Strategies never see these figures; they see node totals
 * with measurement noise and per-region counters, as on a real cluster, so any gap between this
 * model and the planner's metric mapping is estimation error every strategy suffers alike.
 *
 * <ul>
 *   <li>CPU: a point read costs {@code readCpuSeconds}; a write costs {@code writeCpuRatio} times
 *       that (the paper measured 1.63); each further row of a scan costs {@code scanRowCpuRatio}
 *       of a read; every payload byte costs {@code cpuSecondsPerByte} (copies, checksums); every
 *       amplified byte written costs {@code compactionCpuSecondsPerByte}; each hosted region costs
 *       {@code regionCpuOverhead} cores (memstore, flush bookkeeping) and each node
 *       {@code nodeBaseCpu}.</li>
 *   <li>Disk reads are block-granular: a point read touches ⌈value/block⌉ blocks, a scan
 *       ⌈rows·value/block⌉; the node's block cache absorbs a share of them. Cache is shared among
 *       the node's regions in proportion to how much each reads (hot data stays cached), and a
 *       region's hit ratio is its share over its working set, capped at {@code maxCacheHitRatio}.
 *       So co-locating read-hot regions makes them all miss more: placement changes disk cost.</li>
 *   <li>Disk writes: every user byte written costs {@code writeAmplification} disk bytes (WAL,
 *       flush, compactions), plus {@code writeOverheadBytes} per write.</li>
 *   <li>Replication: each write is also applied by {@code replication − 1} followers, each paying
 *       the same disk bytes and {@code followerCpuRatio} of the leader's write CPU. Followers are
 *       spread over the other nodes in proportion to their capacity (as write pipelines pick
 *       them), so their load does not move when the leader's region moves.</li>
 *   <li>Migrating a region copies its bytes: read on the source, written on the destination, sent
 *       over both nodes' network, at {@code migrationCpuSecondsPerByte} on each end.</li>
 * </ul>
 * The {@link Form} changes the shape of the model itself, not its constants: shapes that no
 * feature of the planner's estimate names, to check that the closed loop converges on a truth it
 * was not written against.
 * {@link #drawn} draws the constants per scenario and seed; {@link #DEFAULT} (tests) is plausible for an 8-core node with a SATA/NVMe SSD and 4 KiB blocks (RocksDB's
 * default); they are documented in docs/cli.md.
 */
public record CostModel(double readCpuSeconds, double writeCpuRatio, double scanRowCpuRatio,
                        double cpuSecondsPerByte, double compactionCpuSecondsPerByte, double blockBytes,
                        double maxCacheHitRatio, double writeAmplification, double writeOverheadBytes,
                        int replication, double followerCpuRatio, double regionCpuOverhead, double nodeBaseCpu,
                        double migrationCpuSecondsPerByte, double nodeBaseDisk, double backgroundSpread, Form form) {

    public static final CostModel DEFAULT = new CostModel(40e-6, 1.63, 0.25, 1e-9, 0.5e-9, 4096,
            0.95, 4.0, 128, 3, 0.4, 0.002, 0.05, 2e-9, 0, 0, Form.BLOCKS);

    /** The shape of the hidden model. */
    public enum Form {
        /** As described above: block-granular reads, CPU linear in the work. */
        BLOCKS,
        /** A read of n blocks costs n^0.7 blocks (larger reads are more sequential, libra-virtual-iops.txt). */
        VIRTUAL_IOPS,
        /** A node's CPU grows with its utilisation u as 1 + u (queues, lock and cache contention). */
        CONTENTION,
        /** Each node runs the same work at its own speed: its CPU times 0.7 to 1.4, fixed per node id. */
        NODE_SPEED,
        /** Each node does the same work at a disk cost of its own (another device class): its disk times 0.7 to 1.4. */
        DISK_SPEED,
        /** A node's disk grows with its utilisation u as 1 + u (device queues, garbage collection on flash). */
        DISK_CONTENTION,
        /**
         * A node's disk grows with the data it leads: its work times the square root of that data over
         * the nodes' mean (more levels of an LSM tree to read through and compact), so moving a large
         * cold region makes the hot ones beside it cost more.
         */
        DATA_SIZE,
        /**
         * A node's CPU grows with the data it leads, as its disk does under {@link #DATA_SIZE}: its work
         * times the square root of that data over the nodes' mean (heap, garbage collection, index
         * and bloom filter upkeep).
         */
        DATA_CPU,
        /**
         * A region's reads cost more disk the larger the share of writes among its requests: a read goes
         * through up to {@value #READ_AMPLIFICATION} times the blocks (store files not yet compacted), a
         * cost of the region's own mix that no sum of its counters names.
         */
        READ_AMP;

        /** The form named as on the command line (lower case, '-' for '_'); empty when unknown. */
        public static Optional<Form> byName(String name) {
            return Arrays.stream(values()).filter(f -> f.cliName().equals(name)).findFirst();
        }

        public String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    static final double VIRTUAL_IOPS_EXPONENT = 0.7;
    /** Under {@link Form#READ_AMP}, the blocks a read of a region that only took writes would go through. */
    static final double READ_AMPLIFICATION = 4;

    public CostModel {
        if (!(readCpuSeconds > 0 && writeCpuRatio > 0 && blockBytes > 0 && replication >= 1
                && maxCacheHitRatio >= 0 && maxCacheHitRatio < 1 && writeAmplification >= 1)) {
            throw new IllegalArgumentException("cost model: costs must be > 0, hit ratio in [0, 1), amplification >= 1");
        }
        Objects.requireNonNull(form, "form");
    }

    /**
     * The hidden model of a scenario and seed: every constant is drawn from a range (documented in
     * docs/benchmarks.md), so no planner constant is exact by construction and a result must hold
     * across seeds. The scenario's cost profile widens the ranges where the paper's fixed mapping
     * is wrong: large blocks that cached small values avoid, CPU per byte, background per node.
     */
    public static CostModel drawn(Scenario s, long seed) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + s.name().hashCode());
        Scenario.CostProfile p = s.profile();
        boolean cache = p == Scenario.CostProfile.CACHE_SKEW;
        boolean background = p == Scenario.CostProfile.BACKGROUND;
        double[] blocks = {4096, 8192, 16384};
        return new CostModel(u(r, 25e-6, 60e-6), u(r, 1.2, 2.4), u(r, 0.15, 0.4),
                p == Scenario.CostProfile.BYTE_CPU ? u(r, 15e-9, 40e-9) : u(r, 0.5e-9, 2e-9), u(r, 0.2e-9, 1e-9),
                cache ? 65536 : blocks[r.nextInt(blocks.length)], cache ? u(r, 0.97, 0.99) : u(r, 0.85, 0.97),
                u(r, 2.5, 6), u(r, 64, 512), s.replication(), u(r, 0.25, 0.6), u(r, 0.001, 0.004),
                background ? u(r, 0.3, 0.6) : u(r, 0.02, 0.2), u(r, 1e-9, 3e-9), background ? u(r, 10e6, 30e6) : 0,
                background ? 2 : 0, Form.BLOCKS);
    }

    private static double u(SplittableRandom r, double lo, double hi) {
        return r.nextDouble(lo, hi);
    }

    /** A node's background multiplier, 1 to 1 + backgroundSpread, fixed per node id. */
    private double background(String nodeId) {
        return 1 + backgroundSpread * unit(nodeId, 0x9E3779B97F4A7C15L);
    }

    /** A node's CPU per unit of work under {@link Form#NODE_SPEED}, 0.7 to 1.4, fixed per node id. */
    private static double speed(String nodeId) {
        return 0.7 + 0.7 * unit(nodeId, 0xC2B2AE3D27D4EB4FL);
    }

    /** A node's disk per unit of work under {@link Form#DISK_SPEED}, 0.7 to 1.4, fixed per node id. */
    private static double diskSpeed(String nodeId) {
        return 0.7 + 0.7 * unit(nodeId, 0x165667B19E3779F9L);
    }

    /** A number in [0, 1) fixed by a node id and a salt. */
    private static double unit(String nodeId, long salt) {
        long h = nodeId.hashCode() * salt;
        return ((h >>> 40) & 0xFFFF) / 65536.0;
    }

    /** The same model in another shape. */
    public CostModel withForm(Form f) {
        return new CostModel(readCpuSeconds, writeCpuRatio, scanRowCpuRatio, cpuSecondsPerByte, compactionCpuSecondsPerByte,
                blockBytes, maxCacheHitRatio, writeAmplification, writeOverheadBytes, replication, followerCpuRatio,
                regionCpuOverhead, nodeBaseCpu, migrationCpuSecondsPerByte, nodeBaseDisk, backgroundSpread, f);
    }

    /** The same model with another replication factor. */
    public CostModel withReplication(int copies) {
        return new CostModel(readCpuSeconds, writeCpuRatio, scanRowCpuRatio, cpuSecondsPerByte, compactionCpuSecondsPerByte,
                blockBytes, maxCacheHitRatio, writeAmplification, writeOverheadBytes, copies, followerCpuRatio,
                regionCpuOverhead, nodeBaseCpu, migrationCpuSecondsPerByte, nodeBaseDisk, backgroundSpread, form);
    }

    /** Busy cores on the serving node (the leader) for this traffic. */
    public double leaderCpu(RegionTraffic t) {
        double ops = t.readOps() + writeCpuRatio * t.writeOps()
                + t.scanOps() * (1 + scanRowCpuRatio * Math.max(0, t.rowsPerScan() - 1));
        return ops * readCpuSeconds + (t.readBytes() + t.writeBytes()) * cpuSecondsPerByte
                + writtenDiskBytes(t) * compactionCpuSecondsPerByte + regionCpuOverhead;
    }

    /** Bytes/s the reads would fetch from disk with no cache at all (whole blocks). */
    public double readBlockBytes(RegionTraffic t) {
        double pointBlocks = blocks(t.meanValueBytes());
        double scanBlocks = blocks(t.rowsPerScan() * t.meanValueBytes());
        return (t.readOps() * pointBlocks + t.scanOps() * scanBlocks) * blockBytes;
    }

    /** Blocks one read of {@code bytes} costs. */
    private double blocks(double bytes) {
        double n = Math.ceil(Math.max(1, bytes) / blockBytes);
        return form == Form.VIRTUAL_IOPS ? Math.pow(n, VIRTUAL_IOPS_EXPONENT) : n;
    }

    /** Disk bytes/s one copy of the region's writes costs (WAL + flush + compaction + per-write overhead). */
    public double writtenDiskBytes(RegionTraffic t) {
        return t.writeBytes() * writeAmplification + t.writeOps() * writeOverheadBytes;
    }

    /** Share of block reads served from cache, given the cache bytes the region gets. */
    public double hitRatio(RegionTraffic t, double cacheShareBytes) {
        if (t.hotBytes() <= 0) {
            return maxCacheHitRatio;
        }
        return Math.min(maxCacheHitRatio, cacheShareBytes / t.hotBytes());
    }

    /** Disk bytes/s on the leader at a given cache hit ratio. */
    public double leaderDisk(RegionTraffic t, double hitRatio) {
        return readBlockBytes(t) * (1 - hitRatio) * readAmplification(t) + writtenDiskBytes(t);
    }

    /** How many times the blocks a read touches it reads from disk: 1, or more under {@link Form#READ_AMP}. */
    private double readAmplification(RegionTraffic t) {
        return form == Form.READ_AMP && t.requests() > 0
                ? 1 + (READ_AMPLIFICATION - 1) * t.writeOps() / t.requests() : 1;
    }

    /** Busy cores one follower spends applying the region's writes. */
    public double followerCpu(RegionTraffic t) {
        return followerCpuRatio * (writeCpuRatio * t.writeOps() * readCpuSeconds
                + t.writeBytes() * cpuSecondsPerByte + writtenDiskBytes(t) * compactionCpuSecondsPerByte);
    }

    /** Busy cores a migration costs each end while it copies {@code bytesPerSec}. */
    public double migrationCpu(double bytesPerSec) {
        return bytesPerSec * migrationCpuSecondsPerByte;
    }

    /** The truth of a plain assignment (region id → node id); every region must be assigned. */
    public Score score(List<NodeSpec> nodes, List<RegionTraffic> regions, Map<String, String> assignment) {
        List<Placement> placements = new ArrayList<>(regions.size());
        for (RegionTraffic r : regions) {
            String node = assignment.get(r.id());
            if (node == null) {
                throw new IllegalArgumentException("region " + r.id() + " is not assigned to a node");
            }
            placements.add(new Placement(r, node));
        }
        return score(nodes, truth(nodes, placements));
    }

    /** Max/Mean per dimension of a set of node truths. */
    public static Score score(List<NodeSpec> nodes, List<NodeTruth> truths) {
        return new Score(nodes, truths, maxOverMean(nodes, truths, true), maxOverMean(nodes, truths, false));
    }

    private static double maxOverMean(List<NodeSpec> nodes, List<NodeTruth> truths, boolean cpu) {
        double load = 0;
        double capacity = 0;
        double maxUtil = 0;
        for (int j = 0; j < nodes.size(); j++) {
            double l = cpu ? truths.get(j).cpu() : truths.get(j).disk();
            double c = cpu ? nodes.get(j).cpuCores() : nodes.get(j).diskBytesPerSec();
            load += l;
            capacity += c;
            maxUtil = Math.max(maxUtil, l / c);
        }
        return load > 0 ? maxUtil / (load / capacity) : 1.0;
    }

    /** Per-node truth of placements over one window (without migration traffic). */
    public List<NodeTruth> truth(List<NodeSpec> nodes, List<Placement> placements) {
        int n = nodes.size();
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int j = 0; j < n; j++) {
            index.put(nodes.get(j).id(), j);
        }
        double[] readWeight = new double[n];
        int[] at = new int[placements.size()];
        for (int i = 0; i < placements.size(); i++) {
            Placement p = placements.get(i);
            Integer j = index.get(p.node());
            if (j == null) {
                throw new IllegalArgumentException("region " + p.traffic().id() + " placed on unknown node " + p.node());
            }
            at[i] = j;
            readWeight[j] += readBlockBytes(p.traffic()) * p.share();
        }
        double[] cpu = new double[n];
        double[] disk = new double[n];
        double[] net = new double[n];
        double[] req = new double[n];
        double[] followerCpuBy = new double[n];
        double[] followerDiskBy = new double[n];
        double[] followerNetBy = new double[n];
        double[] data = new double[n];
        for (int i = 0; i < placements.size(); i++) {
            Placement p = placements.get(i);
            RegionTraffic t = p.traffic();
            int j = at[i];
            double w = readBlockBytes(t);
            double cacheShare = readWeight[j] > 0 ? nodes.get(j).cacheBytes() * w / readWeight[j] : nodes.get(j).cacheBytes();
            double s = p.share();
            cpu[j] += leaderCpu(t) * s;
            disk[j] += leaderDisk(t, hitRatio(t, cacheShare)) * s;
            net[j] += (t.readBytes() + t.writeBytes() * replication) * s;
            req[j] += t.requests() * s;
            followerCpuBy[j] += followerCpu(t) * s;
            followerDiskBy[j] += writtenDiskBytes(t) * s;
            followerNetBy[j] += t.writeBytes() * s;
            data[j] += t.sizeBytes() * s;
        }
        double dataTotal = Arrays.stream(data).sum();
        double[] cores = new double[n];
        double[] bandwidth = new double[n];
        for (int j = 0; j < n; j++) {
            cores[j] = nodes.get(j).cpuCores();
            bandwidth[j] = nodes.get(j).diskBytesPerSec();
        }
        spreadFollowers(cpu, followerCpuBy, cores);
        spreadFollowers(disk, followerDiskBy, bandwidth);
        spreadFollowers(net, followerNetBy, bandwidth);
        List<NodeTruth> out = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            double dataShare = dataTotal > 0 ? data[j] * n / dataTotal : 1;
            cpu[j] = shaped(cpu[j], cores[j], dataShare, nodes.get(j).id());
            double bg = background(nodes.get(j).id());
            double d = shapedDisk(disk[j], bandwidth[j], dataShare, nodes.get(j).id());
            out.add(new NodeTruth(nodes.get(j).id(), cpu[j] + nodeBaseCpu * bg, d + nodeBaseDisk * bg, net[j], req[j]));
        }
        return out;
    }

    /** A node's CPU for its work under this model's {@link Form}; {@code dataShare} its data over the mean. */
    private double shaped(double work, double cores, double dataShare, String nodeId) {
        return switch (form) {
            case CONTENTION -> work * (1 + work / cores);
            case NODE_SPEED -> work * speed(nodeId);
            case DATA_CPU -> work * Math.sqrt(dataShare);
            default -> work;
        };
    }

    /** A node's disk for its work under this model's {@link Form}; {@code dataShare} its data over the mean. */
    private double shapedDisk(double work, double bandwidth, double dataShare, String nodeId) {
        return switch (form) {
            case DISK_SPEED -> work * diskSpeed(nodeId);
            case DISK_CONTENTION -> work * (1 + work / bandwidth);
            case DATA_SIZE -> work * Math.sqrt(dataShare);
            default -> work;
        };
    }

    /**
     * Each node gets a share of the followers of regions led elsewhere, in proportion to its
     * capacity among the other nodes (at most one follower of a region per node).
     */
    private void spreadFollowers(double[] load, double[] ledBy, double[] capacity) {
        int n = load.length;
        if (n < 2 || replication < 2) {
            return;
        }
        double capTotal = 0;
        for (double c : capacity) {
            capTotal += c;
        }
        int followers = Math.min(replication - 1, n - 1);
        for (int j = 0; j < n; j++) {
            if (ledBy[j] == 0) {
                continue;
            }
            double others = capTotal - capacity[j];
            for (int k = 0; k < n; k++) {
                if (k != j) {
                    load[k] += ledBy[j] * Math.min(1, followers * capacity[k] / others);
                }
            }
        }
    }
}
