package io.libra.core.sim;

import io.libra.core.model.KeyRange;

/** A region of the simulated store: its key range (as keys and as positions) and its node. */
public record SimRegion(String id, KeyRange range, double x0, double x1, String node) {
    public static SimRegion of(String id, KeyRange range, String node) {
        return new SimRegion(id, range, KeySpace.position(range.startKey()), KeySpace.endPosition(range.endKey()), node);
    }

    public SimRegion onNode(String n) {
        return new SimRegion(id, range, x0, x1, n);
    }

    public RegionTraffic traffic(Workload w) {
        return w.traffic(id, x0, x1);
    }

    public double sizeBytes(Workload w) {
        return w.dataBytes() * (x1 - x0);
    }
}
