package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import io.libra.core.model.Region;

/** A region with its estimated load: α (busy cores) and β (disk bytes/s). */
public record RegionLoad(Region region, double cpu, double disk) {
    public double of(Dimension d) {
        return d == Dimension.CPU ? cpu : disk;
    }

    public String id() {
        return region.id();
    }

    public String node() {
        return region.node();
    }
}
