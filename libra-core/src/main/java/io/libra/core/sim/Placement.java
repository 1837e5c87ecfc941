package io.libra.core.sim;

/**
 * A region served by a node for a share of the window (1 unless the region moved mid-window,
 * when it is placed twice: on the source for the time before the switch, on the destination after).
 */
public record Placement(RegionTraffic traffic, String node, double share) {
    public Placement(RegionTraffic traffic, String node) {
        this(traffic, node, 1.0);
    }
}
