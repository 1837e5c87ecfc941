package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Learns the correction factor c and the disk cost model online (§IV-A: c is stable per
 * hardware; measuring it beats guessing). Every node of every window is one sample. CPU:
 * {@code A_j ≈ a·ROPS_j + b·WOPS_j} gives {@code c = b/a}. Disk:
 * {@code B_j ≈ r·readTerm_j + w·writeBytes_j + o·writeOps_j} gives the read and write weights
 * and the bytes a write operation costs besides its payload ({@code o/w}). A column with no
 * signal (a write-only workload has no reads) is left out and its configured value kept. A fit
 * that is singular, poor (R² below 0.8), negative or out of bounds is not used. Immutable:
 * {@link #observe} returns a new calibration.
 */
public final class OnlineCalibration {
    /** Largest number of (node, window) samples kept. */
    public static final int MAX_SAMPLES = 4096;
    private static final double MIN_R_SQUARED = 0.8;
    private static final double MIN_C = 0.2;
    private static final double MAX_C = 10;
    private static final double MIN_WEIGHT_RATIO = 0.01;
    private static final double MAX_WEIGHT_RATIO = 100;
    private static final double MAX_WRITE_OP_BYTES = 1 << 20;
    private static final int CPU = 0;
    private static final int ROPS = 1;
    private static final int WOPS = 2;
    private static final int DISK = 3;
    private static final int READ_TERM = 4;
    private static final int WRITE_BYTES = 5;

    private final EstimationConfig configured;
    private final List<double[]> samples;

    public OnlineCalibration(EstimationConfig configured) {
        this(configured, List.of());
    }

    private OnlineCalibration(EstimationConfig configured, List<double[]> samples) {
        this.configured = configured;
        this.samples = samples;
    }

    public int sampleCount() {
        return samples.size();
    }

    /** Adds one sample per node of the window. */
    public OnlineCalibration observe(ClusterSnapshot window) {
        Map<String, RegionCounters> perNode = new HashMap<>();
        for (Region r : window.regions()) {
            perNode.merge(r.node(), r.counters(), RegionCounters::plus);
        }
        List<double[]> next = new ArrayList<>(samples);
        for (Node n : window.nodes()) {
            RegionCounters c = perNode.getOrDefault(n.id(), RegionCounters.ZERO);
            next.add(new double[] {n.cpuUsage(), c.readOps(), c.writeOps(), n.diskBytesPerSec(),
                configured.disk().readTerm(c), c.writeBytes()});
        }
        int from = Math.max(0, next.size() - MAX_SAMPLES);
        return new OnlineCalibration(configured, List.copyOf(next.subList(from, next.size())));
    }

    /** The estimation to plan with: learnt values where the fit is good, configured ones elsewhere. */
    public EstimationConfig estimation() {
        return fit().applyTo(configured);
    }

    public Calibration fit() {
        CpuFit cpu = fitCpu();
        DiskFit disk = fitDisk();
        return new Calibration(cpu.c, cpu.quality, cpu.learnt, disk.model, disk.quality, disk.learnt,
                cpu.detail + "; " + disk.detail);
    }

    private record CpuFit(double c, double quality, boolean learnt, String detail) {
    }

    private record DiskFit(DiskCostModel model, double quality, boolean learnt, String detail) {
    }

    private CpuFit fitCpu() {
        double kept = configured.correctionFactor();
        if (!hasSignal(ROPS) || !hasSignal(WOPS)) {
            return new CpuFit(kept, 0, false, "c kept: reads and writes are not both present");
        }
        LeastSquares f = LeastSquares.fit(new double[][] {column(ROPS), column(WOPS)}, column(CPU));
        double[] b = f.coefficients();
        boolean ok = f.solvable() && b[0] > 0 && b[1] > 0 && f.rSquared() >= MIN_R_SQUARED
                && within(b[1] / b[0], MIN_C, MAX_C);
        return ok ? new CpuFit(b[1] / b[0], f.rSquared(), true, "c learnt " + fmt(b[1] / b[0]) + from(f))
                : new CpuFit(kept, f.rSquared(), false, "c kept: " + rejected(f));
    }

    private DiskFit fitDisk() {
        DiskCostModel kept = configured.disk();
        boolean reads = hasSignal(READ_TERM);
        boolean writes = hasSignal(WRITE_BYTES);
        if (!reads && !writes) {
            return new DiskFit(kept, 0, false, "disk model kept: no traffic");
        }
        LeastSquares f = LeastSquares.fit(columns(reads, writes, true), column(DISK));
        boolean perOp = f.solvable();
        if (!perOp) {
            // bytes and ops move together (one value size): keep the configured bytes per op
            f = LeastSquares.fit(columns(reads, writes, false), column(DISK));
        }
        DiskCostModel learnt = f.solvable() && f.rSquared() >= MIN_R_SQUARED
                ? toModel(perOp ? f.coefficients() : withKeptOpBytes(f.coefficients(), reads, writes), reads, writes)
                : null;
        return learnt != null ? new DiskFit(learnt, f.rSquared(), true, "disk model learnt (read weight "
                + fmt(learnt.readWeight()) + ", write weight " + fmt(learnt.writeWeight()) + ", "
                + fmt(learnt.writeOpBytes()) + " B per write)" + from(f))
                : new DiskFit(kept, f.rSquared(), false, "disk model kept: " + rejected(f));
    }

    /** Regressors: the read term, then either write bytes and write ops, or the configured write term. */
    private double[][] columns(boolean reads, boolean writes, boolean perOp) {
        List<double[]> cols = new ArrayList<>();
        if (reads) {
            cols.add(column(READ_TERM));
        }
        if (writes && perOp) {
            cols.add(column(WRITE_BYTES));
            cols.add(column(WOPS));
        } else if (writes) {
            double[] bytes = column(WRITE_BYTES);
            double[] ops = column(WOPS);
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] += ops[i] * configured.disk().writeOpBytes();
            }
            cols.add(bytes);
        }
        return cols.toArray(new double[0][]);
    }

    /** Expands [r?, w] fitted on the configured write term to [r?, w, w·opBytes]. */
    private double[] withKeptOpBytes(double[] b, boolean reads, boolean writes) {
        if (!writes) {
            return b;
        }
        double w = b[reads ? 1 : 0];
        return reads ? new double[] {b[0], w, w * configured.disk().writeOpBytes()}
                : new double[] {w, w * configured.disk().writeOpBytes()};
    }

    /** Coefficients to a cost model; null when they are negative or out of bounds. */
    private DiskCostModel toModel(double[] b, boolean reads, boolean writes) {
        DiskCostModel kept = configured.disk();
        double r = reads ? b[0] : 0;
        double w = writes ? b[reads ? 1 : 0] : 0;
        double o = writes ? b[reads ? 2 : 1] : 0;
        if (reads && !(r > 0) || writes && !(w > 0 && o >= 0)) {
            return null;
        }
        double readWeight = reads ? r : w * kept.readWeight() / kept.writeWeight();
        double writeWeight = writes ? w : r * kept.writeWeight() / Math.max(kept.readWeight(), 1e-12);
        double opBytes = writes ? o / w : kept.writeOpBytes();
        if (!within(readWeight / writeWeight, MIN_WEIGHT_RATIO, MAX_WEIGHT_RATIO) || opBytes > MAX_WRITE_OP_BYTES) {
            return null;
        }
        return new DiskCostModel(kept.readFloorBytes(), opBytes, readWeight, writeWeight);
    }

    private boolean hasSignal(int col) {
        for (double[] s : samples) {
            if (s[col] > 0) {
                return true;
            }
        }
        return false;
    }

    private double[] column(int col) {
        double[] out = new double[samples.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = samples.get(i)[col];
        }
        return out;
    }

    private static boolean within(double v, double lo, double hi) {
        return v >= lo && v <= hi;
    }

    private String from(LeastSquares f) {
        return " from " + samples.size() + " samples (R² " + fmt(f.rSquared()) + ")";
    }

    private String rejected(LeastSquares f) {
        if (!f.solvable()) {
            return "too few or collinear samples (" + samples.size() + ")";
        }
        return "fit rejected (R² " + fmt(f.rSquared()) + ", coefficients out of bounds or below R² 0.8)";
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%.3g", x);
    }
}
