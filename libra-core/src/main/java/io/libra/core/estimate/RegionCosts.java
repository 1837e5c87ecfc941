package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import io.libra.core.model.RegionCounters;
import java.util.function.ToDoubleFunction;

/**
 * A region's cost in each dimension from its counters, by the model that shared the node totals:
 * what a split shares a region's load between its halves by, and where it cuts. Splitting by
 * the paper's mapping while the learnt weights shared the load would give a half the share the
 * mapping sees in its reads and writes, not the one the model that measured it sees.
 */
public record RegionCosts(ToDoubleFunction<RegionCounters> cpu, ToDoubleFunction<RegionCounters> disk) {
    /** The paper's mapping. */
    public static RegionCosts mapping(EstimationConfig c) {
        return new RegionCosts(c::cpuWeight, x -> c.disk().cost(x));
    }

    public double of(Dimension d, RegionCounters c) {
        return d == Dimension.CPU ? cpu.applyAsDouble(c) : disk.applyAsDouble(c);
    }
}
