package io.libra.core.estimate;

/**
 * The outcome of fitting the metric mapping to measurements: the values to use and whether
 * they were learnt or fell back to the configured ones (and why).
 *
 * @param correctionFactor c to use
 * @param cpuFitQuality    R² of node CPU ≈ a·ROPS + b·WOPS (0 when not fitted)
 * @param disk             disk cost model to use
 * @param diskFitQuality   R² of node disk ≈ r·readTerm + w·writeBytes + o·writeOps (0 when not fitted)
 * @param detail           one line: what was learnt, or why the configured values were kept
 */
public record Calibration(double correctionFactor, double cpuFitQuality, boolean cpuLearnt,
                          DiskCostModel disk, double diskFitQuality, boolean diskLearnt, String detail) {
    public EstimationConfig applyTo(EstimationConfig base) {
        return base.withCorrectionFactor(correctionFactor).withDisk(disk);
    }
}
