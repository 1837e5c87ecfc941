package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Learns the correction factor c and the disk weights online (§IV-A says c is stable per
 * hardware; measuring it beats guessing). Every node of every window is one sample
 * (node CPU, ROPS, WOPS) and (node disk, read term, write term); a least-squares fit over the
 * most recent samples gives c = b/a and the write/read disk weight ratio. A fit that is poor
 * (R² below the floor), singular (reads and writes move together) or out of bounds is not
 * used: the configured value stays. Immutable: {@link #observe} returns a new calibration.
 */
public final class OnlineCalibration {
    /** Largest number of (node, window) samples kept. */
    public static final int MAX_SAMPLES = 4096;
    private static final double MIN_R_SQUARED = 0.8;
    private static final double MIN_C = 0.2;
    private static final double MAX_C = 10;
    private static final double MIN_WEIGHT_RATIO = 0.05;
    private static final double MAX_WEIGHT_RATIO = 100;

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
                configured.disk().readTerm(c), configured.disk().writeTerm(c)});
        }
        int from = Math.max(0, next.size() - MAX_SAMPLES);
        return new OnlineCalibration(configured, List.copyOf(next.subList(from, next.size())));
    }

    public Calibration fit() {
        LeastSquares cpu = fitColumns(0, 1, 2);
        LeastSquares disk = fitColumns(3, 4, 5);
        boolean cpuOk = usable(cpu) && within(cpu.b() / cpu.a(), MIN_C, MAX_C);
        boolean diskOk = usable(disk) && within(disk.b() / disk.a(), MIN_WEIGHT_RATIO, MAX_WEIGHT_RATIO);
        double c = cpuOk ? cpu.b() / cpu.a() : configured.correctionFactor();
        DiskCostModel d = configured.disk();
        double scale = d.readWeight() > 0 ? d.readWeight() : 1;
        double readW = diskOk ? scale : d.readWeight();
        double writeW = diskOk ? scale * disk.b() / disk.a() : d.writeWeight();
        return new Calibration(c, cpu.rSquared(), cpuOk, readW, writeW, disk.rSquared(), diskOk,
                describe("c", cpu, cpuOk) + "; " + describe("disk write/read weight", disk, diskOk));
    }

    private LeastSquares fitColumns(int y, int x1, int x2) {
        int n = samples.size();
        double[] ys = new double[n];
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            double[] s = samples.get(i);
            ys[i] = s[y];
            a[i] = s[x1];
            b[i] = s[x2];
        }
        return LeastSquares.fit(a, b, ys);
    }

    private static boolean usable(LeastSquares f) {
        return f.solvable() && f.a() > 0 && f.b() > 0 && f.rSquared() >= MIN_R_SQUARED;
    }

    private static boolean within(double v, double lo, double hi) {
        return v >= lo && v <= hi;
    }

    private String describe(String what, LeastSquares f, boolean ok) {
        if (ok) {
            return what + " learnt from " + samples.size() + " samples (R² " + round(f.rSquared()) + ")";
        }
        if (!f.solvable()) {
            return what + " kept: too few or collinear samples (" + samples.size() + ")";
        }
        return what + " kept: fit rejected (R² " + round(f.rSquared()) + ", a " + round(f.a()) + ", b " + round(f.b()) + ")";
    }

    private static String round(double x) {
        return String.format(java.util.Locale.ROOT, "%.3g", x);
    }
}
