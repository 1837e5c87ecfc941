package io.libra.core.estimate;

import io.libra.core.model.RegionCounters;

/**
 * Relative disk cost of a region's user traffic, before it is scaled to what the node's disk
 * actually did. Reads are block-granular, non-linear in request size in the way of virtual
 * IOPs: a read smaller than a block still costs the block, larger ones cost their bytes.
 * Writes cost a per-byte term (amplified by WAL, flushes, compactions and replication) plus a
 * per-operation term (a WAL append and its sync cost something whatever the value size).
 *
 * @param readFloorBytes bytes a read costs at least (a block)
 * @param writeOpBytes   bytes of disk work per write operation, besides its payload
 * @param readWeight     disk bytes per read byte (the share of reads that miss the cache)
 * @param writeWeight    disk bytes per written byte (WAL + flush + compaction + replicas)
 */
public record DiskCostModel(double readFloorBytes, double writeOpBytes, double readWeight, double writeWeight) {
    /** 4 KiB blocks, 64 B per write op (a WAL entry header and its share of a group sync), every read missing cache, writes amplified 3×. */
    public static final DiskCostModel DEFAULT = new DiskCostModel(4096, 64, 1.0, 3.0);

    public DiskCostModel {
        if (!(readFloorBytes >= 0 && writeOpBytes >= 0 && readWeight >= 0 && writeWeight >= 0)
                || readWeight + writeWeight <= 0 || Double.isInfinite(writeOpBytes)) {
            throw new IllegalArgumentException("disk cost model: floors and weights must be finite and >= 0, "
                    + "weights not both 0");
        }
    }

    /** Read cost before weighting: bytes, or ops × floor when requests are small. */
    public double readTerm(RegionCounters c) {
        return Math.max(c.readBytes(), c.readOps() * readFloorBytes);
    }

    /** Write cost before weighting: payload bytes plus the per-operation bytes. */
    public double writeTerm(RegionCounters c) {
        return c.writeBytes() + c.writeOps() * writeOpBytes;
    }

    public double cost(RegionCounters c) {
        return readWeight * readTerm(c) + writeWeight * writeTerm(c);
    }

    public DiskCostModel withWeights(double read, double write) {
        return new DiskCostModel(readFloorBytes, writeOpBytes, read, write);
    }

    public DiskCostModel withReadFloor(double bytes) {
        return new DiskCostModel(bytes, writeOpBytes, readWeight, writeWeight);
    }

    public DiskCostModel withWriteOpBytes(double bytes) {
        return new DiskCostModel(readFloorBytes, bytes, readWeight, writeWeight);
    }
}
