package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Disk speeds of the nodes' own under a learnt block cache. On disks of unequal speed a node
 * measures its cache's misses times its disk's factor; a cache fitted on those totals takes the
 * factors for its own error (a hit ratio, a cache size), so it misjudges which regions cost disk
 * and prices a region moved onto a slow disk as on the mean one. Over windows in which regions moved, the factor is what
 * stays with a node while its regions change: the cache is refitted on the totals with the factors
 * taken out and the factors found again, in turn ({@link #REFITS} times). They are kept only where,
 * each window predicted with the factors of the others, they cut the cache's error on the node
 * totals by {@link NodeBackgrounds#MARGIN}: a window's residual shared by the regions that made it
 * does not stay when they leave, and fails that test. One window cannot tell, and learns none;
 * nor can windows that left most nodes' predicted disk as it was ({@link #changed}).
 */
final class CacheSpeeds {
    /** Refits of the cache with the speeds taken out, each with the speeds the last one left. */
    static final int REFITS = 3;

    private CacheSpeeds() {
    }

    /**
     * The cache refitted with the nodes' disk speeds out, and those speeds; the cache's error is the
     * one it forecasts with, each window's totals predicted with the speeds of the others.
     */
    record Learnt(CacheModel cache, NodeBackgrounds speeds) {
        /** Whether it beats the linear model with the nodes' own loads ({@code linearError}) as a cache must. */
        boolean beats(double linearError) {
            return CacheModel.beats(cache.fitError(), linearError);
        }

        /** Whether, without beating it, it predicts about as well ({@link CacheModel#rivalsLinear}). */
        boolean rivals(double linearError) {
            return CacheModel.rivals(cache.fitError(), linearError);
        }

        /** Whether, without beating it, it predicts within {@link CacheModel#RIVAL_WITHIN} times its error. */
        boolean near(double linearError) {
            return CacheModel.near(cache.fitError(), linearError);
        }
    }

    /** A cache fitted with speeds taken out, and the speeds its last refit found. */
    private record Refit(CacheModel cache, Map<String, Double> speeds) {
    }

    /**
     * @param first  the cache fitted on the measured totals, if one was: the speeds start from its residuals
     * @param linear the linear disk fit on {@code samples}: the speeds start from its residuals otherwise,
     *               and nothing is refitted unless they stay with the nodes from window to window
     */
    static Optional<Learnt> learn(List<ClusterSnapshot> windows, Optional<CacheModel> first, CostFit linear,
                                  List<NodeSample> samples) {
        Totals residuals = totals(linear, samples, windows.size());
        if (windows.size() < 2 || !persists(residuals)) {
            return Optional.empty();
        }
        Map<String, Double> start = first.map(c -> speeds(totals(windows, c), -1)).orElseGet(() -> speeds(residuals, -1));
        return refit(windows, start, linear.fitError()).flatMap(r -> judged(windows, r, first, linear.fitError()));
    }

    /** The cache and the speeds fitted in turn, {@link #REFITS} times; empty when a refit finds no cache. */
    private static Optional<Refit> refit(List<ClusterSnapshot> windows, Map<String, Double> start, double linearError) {
        Map<String, Double> speeds = start;
        CacheModel cache = null;
        for (int i = 0; i < REFITS; i++) {
            if (cache != null) {
                speeds = speeds(totals(windows, cache), -1);
            }
            Optional<CacheModel> next = CacheModel.candidate(takenOut(windows, speeds), linearError);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            cache = next.get();
        }
        return Optional.of(new Refit(cache, speeds));
    }

    /** The refit, if its speeds predict each window from the others better than the cache alone does. */
    private static Optional<Learnt> judged(List<ClusterSnapshot> windows, Refit r, Optional<CacheModel> first,
                                           double linearError) {
        double with = heldOutError(totals(windows, r.cache()));
        double without = heldOutError(totals(windows, first.orElse(r.cache())).withoutSpeeds());
        if (!cuts(with, without)) {
            return Optional.empty();
        }
        String detail = String.format(Locale.ROOT, "a disk speed of its own on each of %d nodes (%.2f to %.2f of the"
                + " mean), learnt with the cache over %d windows: %.1f%% error on each window predicted with the"
                + " others' speeds, %.1f%% without", r.speeds().size(), min(r.speeds()), max(r.speeds()),
                windows.size(), 100 * with, 100 * without);
        CacheModel c = r.cache();
        CacheModel judged = new CacheModel(c.blockBytes(), c.maxHit(), c.reach(), c.meanBytes(), c.weights(), with,
                linearError);
        return Optional.of(new Learnt(judged, new NodeBackgrounds(Map.of(), r.speeds(), detail, with / without)));
    }

    /**
     * Whether each window's residuals, predicted from the other windows', cut the error, on windows
     * that changed the nodes' predicted disk ({@link #changed}) for at least half of them.
     */
    private static boolean persists(Totals t) {
        return evidenced(t) && cuts(heldOutError(t), heldOutError(t.withoutSpeeds()));
    }

    private static boolean cuts(double with, double without) {
        return with < (1 - NodeBackgrounds.MARGIN) * without;
    }

    /** Per window and node, the measured disk and what the linear fit predicts there. */
    private static Totals totals(CostFit fit, List<NodeSample> samples, int windows) {
        List<Map<String, double[]>> out = new ArrayList<>(windows);
        for (int w = 0; w < windows; w++) {
            out.add(new HashMap<>());
        }
        for (NodeSample s : samples) {
            out.get(s.window()).put(s.node(),
                    new double[] {s.measured(fit.dimension()), CostFit.dot(fit.weights(), s.features(fit.dimension()))});
        }
        return new Totals(out, true);
    }

    /** Per window and node, the measured disk and what {@code cache} predicts for its regions there. */
    private record Totals(List<Map<String, double[]>> byWindow, boolean speeds) {
        Totals withoutSpeeds() {
            return new Totals(byWindow, false);
        }
    }

    private static Totals totals(List<ClusterSnapshot> windows, CacheModel cache) {
        List<Map<String, double[]>> out = new ArrayList<>(windows.size());
        for (ClusterSnapshot w : windows) {
            Map<String, List<Region>> on = new HashMap<>();
            for (Region r : w.regions()) {
                on.computeIfAbsent(r.node(), k -> new ArrayList<>()).add(r);
            }
            Map<String, double[]> nodes = new HashMap<>();
            for (Node n : w.nodes()) {
                double predicted = cache.background() + cache.nodeDisk(on.getOrDefault(n.id(), List.of()));
                nodes.put(n.id(), new double[] {n.diskBytesPerSec(), predicted});
            }
            out.add(nodes);
        }
        return new Totals(out, true);
    }

    /**
     * Per node, its measured over its predicted disk on every window but {@code leftOut} (-1: none),
     * over the same for the whole cluster, so that the speeds average 1 and the cache's scale stays its own.
     */
    private static Map<String, Double> speeds(Totals t, int leftOut) {
        Map<String, double[]> sums = new HashMap<>();
        double[] all = new double[2];
        for (int w = 0; w < t.byWindow().size(); w++) {
            if (w == leftOut) {
                continue;
            }
            for (Map.Entry<String, double[]> e : t.byWindow().get(w).entrySet()) {
                double[] s = sums.computeIfAbsent(e.getKey(), k -> new double[2]);
                for (int k = 0; k < 2; k++) {
                    s[k] += e.getValue()[k];
                    all[k] += e.getValue()[k];
                }
            }
        }
        Map<String, Double> out = new HashMap<>();
        double cluster = all[1] > 0 ? all[0] / all[1] : 1;
        sums.forEach((id, s) -> out.put(id, s[1] > 0 && s[0] > 0 && cluster > 0 ? s[0] / s[1] / cluster : 1));
        return out;
    }

    /** The windows with each node's disk divided by its speed: what a node of the mean speed would measure. */
    private static List<ClusterSnapshot> takenOut(List<ClusterSnapshot> windows, Map<String, Double> speeds) {
        List<ClusterSnapshot> out = new ArrayList<>(windows.size());
        for (ClusterSnapshot w : windows) {
            List<Node> nodes = w.nodes().stream()
                    .map(n -> n.withMeasured(n.cpuUsage(), n.diskBytesPerSec() / speeds.getOrDefault(n.id(), 1.0)))
                    .toList();
            out.add(w.withState(nodes, w.regions()));
        }
        return out;
    }

    /**
     * The mean absolute error on node totals of each window predicted from the others, over the nodes
     * whose predicted disk that window changed: with the speeds, each node's own from the other windows;
     * without, the cluster's scale alone; NaN when no window changed any.
     */
    private static double heldOutError(Totals t) {
        double error = 0;
        double measured = 0;
        for (int w = 0; w < t.byWindow().size(); w++) {
            Map<String, Double> others = speeds(t, w);
            double scale = scale(t, w);
            for (Map.Entry<String, double[]> e : t.byWindow().get(w).entrySet()) {
                if (changed(t, w, e.getKey())) {
                    double speed = t.speeds() ? others.getOrDefault(e.getKey(), 1.0) : 1;
                    error += Math.abs(e.getValue()[0] - scale * speed * e.getValue()[1]);
                    measured += e.getValue()[0];
                }
            }
        }
        return measured > 0 ? error / measured : Double.NaN;
    }

    /**
     * Whether node {@code id}'s predicted disk in window {@code w} differs from its mean over the
     * other windows by {@link NodeBackgrounds#MIN_CHANGE}: only then can the window tell a speed of
     * the node's own from the model's error about the regions it holds (on a node whose regions stay,
     * both stay alike).
     */
    private static boolean changed(Totals t, int w, String id) {
        double sum = 0;
        int n = 0;
        for (int o = 0; o < t.byWindow().size(); o++) {
            double[] v = t.byWindow().get(o).get(id);
            if (o != w && v != null) {
                sum += v[1];
                n++;
            }
        }
        double here = t.byWindow().get(w).get(id)[1];
        return n > 0 && Math.abs(here - sum / n) >= NodeBackgrounds.MIN_CHANGE * Math.max(here, sum / n);
    }

    /** Whether windows changed the predicted disk of at least half the nodes, so their speeds can be told. */
    private static boolean evidenced(Totals t) {
        java.util.Set<String> told = new java.util.HashSet<>();
        java.util.Set<String> all = new java.util.HashSet<>();
        for (int w = 0; w < t.byWindow().size(); w++) {
            for (String id : t.byWindow().get(w).keySet()) {
                all.add(id);
                if (changed(t, w, id)) {
                    told.add(id);
                }
            }
        }
        return 2 * told.size() >= all.size() && !told.isEmpty();
    }

    /** The cluster's measured over predicted disk on the windows other than {@code leftOut}. */
    private static double scale(Totals t, int leftOut) {
        double[] all = new double[2];
        for (int w = 0; w < t.byWindow().size(); w++) {
            if (w != leftOut) {
                for (double[] v : t.byWindow().get(w).values()) {
                    all[0] += v[0];
                    all[1] += v[1];
                }
            }
        }
        return all[1] > 0 ? all[0] / all[1] : 1;
    }

    private static double min(Map<String, Double> speeds) {
        return speeds.values().stream().mapToDouble(Double::doubleValue).min().orElse(1);
    }

    private static double max(Map<String, Double> speeds) {
        return speeds.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
    }
}
