package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import io.libra.core.model.RegionCounters;
import java.util.List;

/**
 * The features a learnt cost model weighs: reads by size class (ops and bytes of each class),
 * write ops and write bytes, plus a per-node constant. Classing reads by their mean size
 * (bytes/ops of the region) lets the cost of a request be non-linear in its size, as virtual
 * IOPs are (libra-virtual-iops.txt), and lets small, cache-friendly reads cost differently
 * from large ones that miss. The boundary between the first two classes is the disk model's
 * read floor (a block), so the paper's mapping is exactly one point of this model: see
 * {@link #prior}.
 */
public final class CostFeatures {
    /** Index of the per-node constant (background work no counter explains). */
    public static final int BACKGROUND = 0;
    static final List<String> NAMES = List.of("background", "small reads", "small read bytes",
            "medium reads", "medium read bytes", "large reads", "large read bytes", "writes", "write bytes",
            "replica writes");
    /** Reads of this many floors or more are large. */
    static final double LARGE_FLOORS = 16;
    static final int WRITE_OPS = 7;
    private static final int WRITE_BYTES = 8;
    /**
     * Index of the second per-node feature: the writes a node applies as a replica of regions led
     * elsewhere ({@link Followers}), which no region of its own carries.
     */
    public static final int FOLLOWERS = 9;

    private final double floorBytes;

    public CostFeatures(double floorBytes) {
        this.floorBytes = floorBytes > 0 ? floorBytes : 4096;
    }

    public static int count() {
        return NAMES.size();
    }

    public static String name(int k) {
        return NAMES.get(k);
    }

    /** The kind of a feature: 0 the constant, 1 reads (ops and bytes of every class), 2 writes, 3 replica writes. */
    static int kind(int k) {
        return k == BACKGROUND ? 0 : k == FOLLOWERS ? 3 : k < WRITE_OPS ? 1 : 2;
    }

    /** Whether feature k belongs to the node, not to its regions. */
    static boolean perNode(int k) {
        return k == BACKGROUND || k == FOLLOWERS;
    }

    /** A region's writes weighed by {@code prior}'s write weights: what a replica of it applies, up to a scale. */
    static double replicated(RegionCounters c, double[] prior) {
        return prior[WRITE_OPS] * c.writeOps() + prior[WRITE_BYTES] * c.writeBytes();
    }

    /** {@link #replicated(RegionCounters, double[])} of summed features. */
    static double replicated(double[] x, double[] prior) {
        return prior[WRITE_OPS] * x[WRITE_OPS] + prior[WRITE_BYTES] * x[WRITE_BYTES];
    }

    /** Adds a region's features (without the constant) to {@code into}. */
    public void add(RegionCounters c, double[] into) {
        if (c.readOps() > 0 || c.readBytes() > 0) {
            int cls = sizeClass(c);
            into[1 + 2 * cls] += c.readOps();
            into[2 + 2 * cls] += c.readBytes();
        }
        into[WRITE_OPS] += c.writeOps();
        into[WRITE_BYTES] += c.writeBytes();
    }

    /** A region's features: the constant is 0, the node carries it. */
    public double[] of(RegionCounters c) {
        double[] x = new double[count()];
        add(c, x);
        return x;
    }

    private int sizeClass(RegionCounters c) {
        double mean = c.readOps() > 0 ? c.readBytes() / c.readOps() : Double.MAX_VALUE;
        if (mean < floorBytes) {
            return 0;
        }
        return mean < LARGE_FLOORS * floorBytes ? 1 : 2;
    }

    /**
     * The paper's mapping in this feature space, up to a scale: CPU costs ROPS + c·WOPS; disk
     * costs reads at the floor or their bytes (block-granular) and writes per byte and per op.
     */
    public static double[] prior(Dimension d, EstimationConfig config) {
        double[] w = new double[count()];
        if (d == Dimension.CPU) {
            w[1] = 1;
            w[3] = 1;
            w[5] = 1;
            w[WRITE_OPS] = config.correctionFactor();
            return w;
        }
        DiskCostModel m = config.disk();
        w[1] = m.readWeight() * m.readFloorBytes();
        w[4] = m.readWeight();
        w[6] = m.readWeight();
        w[WRITE_OPS] = m.writeWeight() * m.writeOpBytes();
        w[WRITE_BYTES] = m.writeWeight();
        return w;
    }
}
