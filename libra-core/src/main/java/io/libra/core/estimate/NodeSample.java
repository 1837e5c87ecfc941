package io.libra.core.estimate;

import io.libra.core.model.Dimension;

/**
 * One node in one window: what it measured and the summed features of the regions it served.
 * The feature arrays are owned by the sample and never changed after construction.
 *
 * @param node     node id, which groups samples for cross-validation
 * @param window   index of the window, oldest first
 * @param cpu      measured busy cores
 * @param disk     measured disk bytes/s
 * @param cpuFeatures  {@link CostFeatures} of the node's regions, with the node's relative CPU size at
 *                     {@link CostFeatures#BACKGROUND} (its share of a background every node carries)
 * @param diskFeatures the same with its relative disk size there
 * @param arrived  per other node, the summed features (no background) of the regions that sat on
 *                 it in the window before; none in the first window
 */
record NodeSample(String node, int window, double cpu, double disk, double[] cpuFeatures, double[] diskFeatures,
                  Arrivals arrived) {
    NodeSample(String node, int window, double cpu, double disk, double[] cpuFeatures, double[] diskFeatures) {
        this(node, window, cpu, disk, cpuFeatures, diskFeatures, Arrivals.NONE);
    }

    double measured(Dimension d) {
        return d == Dimension.CPU ? cpu : disk;
    }

    double[] features(Dimension d) {
        return d == Dimension.CPU ? cpuFeatures : diskFeatures;
    }

    /** The same sample with {@code value} measured in {@code d}. */
    NodeSample withMeasured(Dimension d, double value) {
        return d == Dimension.CPU ? new NodeSample(node, window, value, disk, cpuFeatures, diskFeatures, arrived)
                : new NodeSample(node, window, cpu, value, cpuFeatures, diskFeatures, arrived);
    }
}
