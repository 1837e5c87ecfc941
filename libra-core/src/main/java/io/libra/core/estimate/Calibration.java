package io.libra.core.estimate;

/**
 * The outcome of fitting the metric mapping to measurements: the values to use and whether
 * they were learnt or fell back to the configured ones (and why).
 *
 * @param correctionFactor    c to use
 * @param cpuFitQuality       R² of node CPU ≈ a·ROPS + b·WOPS (0 when not fitted)
 * @param diskReadWeight      disk read weight to use
 * @param diskWriteWeight     disk write weight to use
 * @param diskFitQuality      R² of node disk ≈ r·readTerm + w·writeTerm
 * @param detail              one line: learnt, or why the configured values were kept
 */
public record Calibration(double correctionFactor, double cpuFitQuality, boolean cpuLearnt,
                          double diskReadWeight, double diskWriteWeight, double diskFitQuality, boolean diskLearnt,
                          String detail) {
    public EstimationConfig applyTo(EstimationConfig base) {
        return base.withCorrectionFactor(correctionFactor)
                .withDisk(base.disk().withWeights(diskReadWeight, diskWriteWeight));
    }
}
