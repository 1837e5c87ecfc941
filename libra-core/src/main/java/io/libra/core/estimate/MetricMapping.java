package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;

/**
 * Metric mapping (§IV-A): a node's measured CPU and disk are shared among its regions in
 * proportion to their request weights,
 * {@code α_i = A_j·(ROPS_i + c·WOPS_i)/(ROPS_j + c·WOPS_j)}, and the same with the disk cost
 * model for β_i. A node with no counted traffic keeps its load as base. Regions the adapter
 * measured keep their measured load (see {@link LoadSharing}).
 */
public final class MetricMapping {
    private final EstimationConfig config;

    public MetricMapping(EstimationConfig config) {
        this.config = config;
    }

    public EstimationConfig config() {
        return config;
    }

    public LoadModel estimate(ClusterSnapshot snapshot) {
        return LoadSharing.share(snapshot, cpuRule(config), diskRule(config));
    }

    private static LoadSharing.Rule cpuRule(EstimationConfig c) {
        return new LoadSharing.Rule(LoadSharing.byCounters(RegionCosts.mapping(c).cpu()), 0);
    }

    private static LoadSharing.Rule diskRule(EstimationConfig c) {
        return new LoadSharing.Rule(LoadSharing.byCounters(RegionCosts.mapping(c).disk()), 0);
    }
}
