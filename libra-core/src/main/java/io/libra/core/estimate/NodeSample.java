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
 */
record NodeSample(String node, int window, double cpu, double disk, double[] cpuFeatures, double[] diskFeatures) {
    double measured(Dimension d) {
        return d == Dimension.CPU ? cpu : disk;
    }

    double[] features(Dimension d) {
        return d == Dimension.CPU ? cpuFeatures : diskFeatures;
    }
}
