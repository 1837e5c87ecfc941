package io.libra.core.estimate;

/**
 * One node in one window: what it measured and the summed features of the regions it served.
 * The feature array is owned by the sample and never changed after construction.
 *
 * @param node     node id, which groups samples for cross-validation
 * @param window   index of the window, oldest first
 * @param cpu      measured busy cores
 * @param disk     measured disk bytes/s
 * @param features {@link CostFeatures} of the node's regions, with 1 at {@link CostFeatures#BACKGROUND}
 */
record NodeSample(String node, int window, double cpu, double disk, double[] features) {
    double measured(io.libra.core.model.Dimension d) {
        return d == io.libra.core.model.Dimension.CPU ? cpu : disk;
    }
}
