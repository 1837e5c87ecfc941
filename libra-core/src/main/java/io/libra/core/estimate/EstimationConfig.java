package io.libra.core.estimate;

import io.libra.core.model.RegionCounters;

/**
 * The metric mapping's parameters (§IV-A).
 *
 * @param correctionFactor c: CPU cost of a write relative to a read (1.63 in the paper)
 * @param disk             relative disk cost of user traffic
 */
public record EstimationConfig(double correctionFactor, DiskCostModel disk) {
    public static final double PAPER_CORRECTION_FACTOR = 1.63;
    public static final EstimationConfig DEFAULT = new EstimationConfig(PAPER_CORRECTION_FACTOR, DiskCostModel.DEFAULT);

    public EstimationConfig {
        if (!(correctionFactor > 0) || Double.isInfinite(correctionFactor)) {
            throw new IllegalArgumentException("correctionFactor: must be a finite number > 0, got " + correctionFactor);
        }
    }

    /** ROPS + c·WOPS: the CPU weight of a region's requests. */
    public double cpuWeight(RegionCounters c) {
        return c.readOps() + correctionFactor * c.writeOps();
    }

    public EstimationConfig withCorrectionFactor(double c) {
        return new EstimationConfig(c, disk);
    }

    public EstimationConfig withDisk(DiskCostModel d) {
        return new EstimationConfig(correctionFactor, d);
    }
}
