package io.libra.hbase.balancer;

import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.model.ClusterSnapshot;
import java.util.Map;

/**
 * The fluctuation guard (§IV-A) as a balancer over hundreds of servers needs it. The paper
 * suspends planning when any node's load moved by more than the threshold (a share of the
 * cluster mean) between two quiet windows. On 500 RegionServers some server nearly always
 * does (a compaction, a burst of scans), so that rule would suspend every run. Here such
 * servers are held still instead, their regions kept in place and no region sent to them,
 * and the rest of the cluster is planned; only when more than {@link #SUSPEND_SHARE} of the
 * servers are in flux (or any one of a cluster under 20 servers, the paper's case) is the whole
 * run suspended.
 */
record Fluctuation(Map<String, String> nodes, int servers) {
    static final double SUSPEND_SHARE = 0.05;
    static final Fluctuation NONE = new Fluctuation(Map.of(), 0);

    /** The servers whose load moved by more than {@code threshold} of the mean since {@code previous}. */
    static Fluctuation between(ClusterSnapshot previous, ClusterSnapshot current, double threshold) {
        if (previous == null || threshold <= 0) {
            return NONE;
        }
        return new Fluctuation(new FluctuationGuard(threshold).inFlux(previous, current), current.nodes().size());
    }

    /** True when too many servers are in flux for a plan to mean anything. */
    boolean suspends() {
        return !nodes.isEmpty() && nodes.size() > Math.floor(servers * SUSPEND_SHARE);
    }

    String describe() {
        return nodes.size() + " of " + servers + " servers in flux, e.g. " + nodes.entrySet().iterator().next();
    }
}
