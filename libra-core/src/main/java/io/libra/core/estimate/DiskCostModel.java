package io.libra.core.estimate;

import io.libra.core.model.RegionCounters;

/**
 * Relative disk cost of a region's user traffic, before it is scaled to what the node's disk
 * actually did. Costs are non-linear in request size in the way of virtual IOPs: a request
 * smaller than the floor costs the floor (a read touches at least a block; a small write
 * still costs a WAL append), larger ones cost their bytes. Writes are amplified by flushes,
 * compactions and replication; reads are weighted by how often they miss the cache.
 *
 * @param readFloorBytes     bytes a read costs at least (a block)
 * @param writeFloorBytes    bytes a write costs at least (a WAL append)
 * @param readWeight         disk bytes per user byte read (cache miss share)
 * @param writeWeight        disk bytes per user byte written (flush + compaction + replicas)
 */
public record DiskCostModel(double readFloorBytes, double writeFloorBytes, double readWeight, double writeWeight) {
    /** 4 KiB blocks, 512 B WAL appends, all reads missing cache, writes amplified 3× (flush + 2 compactions). */
    public static final DiskCostModel DEFAULT = new DiskCostModel(4096, 512, 1.0, 3.0);

    public DiskCostModel {
        if (!(readFloorBytes >= 0 && writeFloorBytes >= 0 && readWeight >= 0 && writeWeight >= 0)
                || readWeight + writeWeight <= 0) {
            throw new IllegalArgumentException("disk cost model: floors and weights must be >= 0, weights not both 0");
        }
    }

    /** Read cost term before weighting: bytes, or ops × floor when requests are small. */
    public double readTerm(RegionCounters c) {
        return Math.max(c.readBytes(), c.readOps() * readFloorBytes);
    }

    /** Write cost term before weighting. */
    public double writeTerm(RegionCounters c) {
        return Math.max(c.writeBytes(), c.writeOps() * writeFloorBytes);
    }

    public double cost(RegionCounters c) {
        return readWeight * readTerm(c) + writeWeight * writeTerm(c);
    }

    public DiskCostModel withWeights(double read, double write) {
        return new DiskCostModel(readFloorBytes, writeFloorBytes, read, write);
    }
}
