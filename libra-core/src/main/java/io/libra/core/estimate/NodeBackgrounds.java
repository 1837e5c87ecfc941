package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import io.libra.core.plan.OwnLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntToDoubleFunction;

/**
 * A background of each node's own, beyond the one every node carries in proportion to its size:
 * work on that node no region counter explains (a compaction backlog, a noisy neighbour, a slower
 * disk). It shows as a residual (measured − the cost model's prediction) that stays with the node
 * when its regions change. A residual that follows the regions instead is the cost model's error
 * about those regions and must keep moving with them, so a node's residual is only taken as its
 * own when it predicted the node's total, in a window that could tell ({@link #MIN_CHANGE}), better
 * (leave-one-window-out) than no offset did and than the regions carrying it did: each region with
 * the correction of the node it sat on the window before, which is what sharing node totals among
 * regions assumes. A
 * window can tell when the node's predicted region load changed, or when regions traded places so
 * that carrying the residuals would have changed its total (even with equal load). With one window, or
 * nodes whose regions never changed, there is no such evidence: such a node keeps what an earlier
 * estimate found (the last plan's {@code estimation.ownLoad}), and otherwise has no offset.
 *
 * <p>A node may instead run all its work at a speed of its own (another generation of hardware,
 * a throttled core, a slower disk): its measured total is then the prediction times a factor that
 * stays with the node, and a region moved there costs that factor times its work, in CPU or disk. The same
 * held-out test decides between the offset and the factor, node by node.
 *
 * @param offsets per node id, added to the node's base load (may be negative); absent means 0
 * @param speeds  per node id, what one unit of region work costs there against the mean node; absent means 1
 * @param detail  one clause for the estimation detail; empty when no node has an offset or a speed
 * @param errorLeft the share of the node totals' error the offsets and speeds leave, each window that can
 *                  tell predicted with them valued on the others ({@link #errorLeft}); 1 when no node has either
 */
public record NodeBackgrounds(Map<String, Double> offsets, Map<String, Double> speeds, String detail,
                              double errorLeft) {
    public static final NodeBackgrounds NONE = new NodeBackgrounds(Map.of(), Map.of(), "", 1);
    /** A window's predicted region load must differ by this share of the node's load from the others'. */
    static final double MIN_CHANGE = 0.05;
    /**
     * A node strays from the cost fit by this share of its total even where two standard deviations of
     * the fit's error are more: when most nodes run at speeds of their own, the speeds make that error.
     */
    static final double UNTOLD_SHARE = 0.05;
    /**
     * A node strays when its total misses the cost fit by more than two standard deviations of the
     * fit's held-out error, which is a mean absolute error: √(π/2) standard deviations of normal errors.
     */
    static final double STRAY = 2 * Math.sqrt(Math.PI / 2);
    /** The offset must cut the error on the changed windows by this fraction, so noise does not flip it. */
    static final double MARGIN = 0.1;
    /** Speeds that moved less than this between two refits of the weights have settled. */
    static final double SETTLED = 0.003;

    public NodeBackgrounds {
        offsets = Map.copyOf(offsets);
        speeds = Map.copyOf(speeds);
    }

    public double of(String node) {
        return offsets.getOrDefault(node, 0.0);
    }

    public double speed(String node) {
        return speeds.getOrDefault(node, 1.0);
    }

    /**
     * The offsets and speeds of {@code fit}'s residuals across the windows of
     * {@code samples}. A node none of whose windows changed keeps what an earlier estimate found
     * ({@code remembered}), valued on these windows: its residual can no longer be told from the
     * cost model's error there, and dropping it would replan the regions as if it were theirs.
     */
    static NodeBackgrounds of(Dimension d, CostFit fit, List<NodeSample> samples, Map<String, OwnLoad.Kind> remembered) {
        Map<Integer, Map<String, Double>> corrections = corrections(d, fit.weights(), samples);
        Map<String, Residuals> byNode = new LinkedHashMap<>();
        for (NodeSample s : samples) {
            byNode.computeIfAbsent(s.node(), k -> new Residuals()).add(s.measured(d), CostFit.dot(fit.weights(), s.features(d)),
                    carried(d, fit.weights(), s, corrections.get(s.window() - 1)));
        }
        Map<String, Double> offsets = new HashMap<>();
        Map<String, Double> speeds = new HashMap<>();
        double with = 0;
        double without = 0;
        double load = 0;
        int kept = 0;
        for (Map.Entry<String, Residuals> e : byNode.entrySet()) {
            Residuals r = e.getValue();
            Residuals.HeldOut h = r.heldOut();
            if (h.load() == 0) {
                kept += keep(e.getKey(), r, remembered.get(e.getKey()), offsets, speeds);
                continue;
            }
            boolean bySpeed = h.scaled() < h.with();
            double best = bySpeed ? h.scaled() : h.with();
            if (h.without() > 0 && best < (1 - MARGIN) * h.without()) {
                if (bySpeed) {
                    speeds.put(e.getKey(), r.ratio());
                } else {
                    offsets.put(e.getKey(), r.mean());
                }
                with += best;
                without += h.without();
                load += h.load();
            }
        }
        if (offsets.isEmpty() && speeds.isEmpty()) {
            return NONE;
        }
        String shown = offsets.size() + speeds.size() == kept ? "" : String.format(Locale.ROOT, ", whose residual stayed"
                + " when their regions changed (%.1f%% off on those windows with them, %.1f%% without)",
                100 * with / load, 100 * without / load);
        String keptOn = kept == 0 ? "" : String.format(Locale.ROOT, "; kept on %d whose regions have not changed since"
                + " an earlier window showed it", kept);
        return new NodeBackgrounds(offsets, speeds, String.format(Locale.ROOT, "a background of its own on %d and a speed"
                + " of its own on %d of %d nodes", offsets.size(), speeds.size(), byNode.size()) + shown + keptOn,
                errorLeft(byNode, offsets.keySet(), speeds.keySet()));
    }

    /**
     * The rival to {@code chosen} in {@code fit}'s dimension: the same, plus a speed of its own on every
     * node that has nothing of its own yet and whose measured total strays from the prediction: by
     * {@link #STRAY} of the fit's error, or by {@link #UNTOLD_SHARE} where that is less (when most nodes
     * run at speeds of their own, those speeds make the fit's error and none strays from it). No window
     * has shown whether such a residual stays with the node or rides with its regions; the two
     * readings agree on this window and part on any move to or from the node ({@code node-speed}: a
     * node 1.37× slower than its pool took 47 regions and measured 13% above the forecast). Empty when
     * no node strays.
     */
    static Optional<NodeBackgrounds> untoldSpeeds(CostFit fit, List<NodeSample> samples, NodeBackgrounds chosen) {
        Dimension d = fit.dimension();
        Map<String, Residuals> byNode = new LinkedHashMap<>();
        for (NodeSample s : samples) {
            byNode.computeIfAbsent(s.node(), k -> new Residuals()).add(s.measured(d),
                    CostFit.dot(fit.weights(), s.features(d)), Double.NaN);
        }
        Map<String, Double> speeds = new HashMap<>(chosen.speeds());
        for (Map.Entry<String, Residuals> e : byNode.entrySet()) {
            double ratio = e.getValue().ratio();
            if (!chosen.offsets().containsKey(e.getKey()) && !speeds.containsKey(e.getKey())
                    && Math.abs(ratio - 1) > Math.min(STRAY * fit.fitError(), UNTOLD_SHARE)) {
                speeds.put(e.getKey(), ratio);
            }
        }
        int untold = speeds.size() - chosen.speeds().size();
        if (untold == 0 || !(fit.fitError() >= 0)) {
            return Optional.empty();
        }
        return Optional.of(new NodeBackgrounds(chosen.offsets(), speeds, String.format(Locale.ROOT,
                "speed of its own on %d node%s no window has shown to have one", untold, untold == 1 ? "" : "s"),
                chosen.errorLeft()));
    }

    /**
     * These speeds halfway (geometric mean) to {@code chosen}'s on the nodes that differ: the node
     * carrying the square root of its untold residual and its regions the rest, between the two readings.
     */
    NodeBackgrounds halfway(NodeBackgrounds chosen) {
        Map<String, Double> half = new HashMap<>(speeds);
        half.replaceAll((n, s) -> chosen.speeds().containsKey(n) ? s : Math.sqrt(s));
        return new NodeBackgrounds(offsets, half, detail, errorLeft);
    }

    /**
     * Over every node and window, the error predicting its total with its own offset or speed (valued
     * on its other windows) over the error without: how much of the cost fit's held-out error the
     * nodes' own loads take away, so that the error a plan reports is that of the model it used. A
     * node with an own load counts only on its windows that can tell ({@link Residuals#whereChanged}):
     * kept from an earlier estimate on windows alike, it would report next to no error for a model
     * no move has tested.
     */
    private static double errorLeft(Map<String, Residuals> byNode, Set<String> offsets,
                                    Set<String> speeds) {
        double with = 0;
        double without = 0;
        for (Map.Entry<String, Residuals> e : byNode.entrySet()) {
            Residuals r = e.getValue();
            boolean offset = offsets.contains(e.getKey());
            if (offset || speeds.contains(e.getKey())) {
                with += r.whereChanged(offset ? r::withOffset : r::withSpeed);
                without += r.whereChanged(r::predicted);
            } else {
                with += r.bareError();
                without += r.bareError();
            }
        }
        return without > 0 ? Math.min(1, with / without) : 1;
    }

    /**
     * Per window and node, the measured region load over the predicted (background taken out): the
     * correction the mapping gives that node's regions when they are shared its measured total.
     */
    private static Map<Integer, Map<String, Double>> corrections(Dimension d, double[] w, List<NodeSample> samples) {
        Map<Integer, Map<String, Double>> out = new HashMap<>();
        for (NodeSample s : samples) {
            double background = nodeOwn(w, s.features(d));
            double regions = CostFit.dot(w, s.features(d)) - background;
            double c = regions > 0 ? Math.max(0, (s.measured(d) - background) / regions) : 1;
            out.computeIfAbsent(s.window(), k -> new HashMap<>()).put(s.node(), c);
        }
        return out;
    }

    /**
     * What the node would have measured had each region carried the correction of the node it sat
     * on the window before (the residual being the regions'), NaN in the first window: against it as
     * well as the bare prediction, a residual that stayed with the node shows as its own.
     */
    private static double carried(Dimension d, double[] w, NodeSample s, Map<String, Double> before) {
        if (before == null) {
            return Double.NaN;
        }
        double background = nodeOwn(w, s.features(d));
        double own = before.getOrDefault(s.node(), 1.0);
        double out = background + own * (CostFit.dot(w, s.features(d)) - background);
        Arrivals arrived = s.arrived();
        for (int i = 0; i < arrived.size(); i++) {
            out += (before.getOrDefault(arrived.from().get(i), 1.0) - own) * arrived.cost(i, w);
        }
        return out;
    }

    /** What the per-node features predict of a node's total: the background and the replica writes it applies. */
    private static double nodeOwn(double[] w, double[] x) {
        return w[CostFeatures.BACKGROUND] * x[CostFeatures.BACKGROUND] + w[CostFeatures.FOLLOWERS] * x[CostFeatures.FOLLOWERS];
    }

    /** Keeps a remembered kind on a node, valued on its windows; 1 when kept. */
    private static int keep(String node, Residuals r, OwnLoad.Kind kind, Map<String, Double> offsets,
                            Map<String, Double> speeds) {
        if (kind == OwnLoad.Kind.SPEED) {
            speeds.put(node, r.ratio());
            return 1;
        }
        if (kind == OwnLoad.Kind.BACKGROUND) {
            offsets.put(node, r.mean());
            return 1;
        }
        return 0;
    }

    /**
     * {@code samples} with what each node has of its own taken out of its measured total in {@code d}:
     * its offset subtracted, its total divided by its speed. Fitted on these, the cost weights are not
     * bent to explain the nodes' own loads as region cost.
     */
    List<NodeSample> takenOut(Dimension d, List<NodeSample> samples) {
        List<NodeSample> out = new ArrayList<>(samples.size());
        for (NodeSample s : samples) {
            double m = (s.measured(d) - of(s.node())) / speed(s.node());
            out.add(m == s.measured(d) ? s : s.withMeasured(d, Math.max(0, m)));
        }
        return out;
    }

    /** Whether these are {@code before}'s own loads on the same nodes, each speed within {@link #SETTLED} of its value there. */
    boolean settledFrom(NodeBackgrounds before) {
        if (!kinds().equals(before.kinds())) {
            return false;
        }
        return speeds.entrySet().stream().allMatch(e -> Math.abs(e.getValue() / before.speed(e.getKey()) - 1) < SETTLED);
    }

    /** What each node has of its own, as a plan carries it. */
    Map<String, OwnLoad.Kind> kinds() {
        Map<String, OwnLoad.Kind> out = new HashMap<>();
        offsets.keySet().forEach(n -> out.put(n, OwnLoad.Kind.BACKGROUND));
        speeds.keySet().forEach(n -> out.put(n, OwnLoad.Kind.SPEED));
        return out;
    }

    /** One node's measured and predicted totals, window by window. */
    private static final class Residuals {
        /** Per window, {measured, predicted, carried}. */
        private final List<double[]> windows = new ArrayList<>();

        void add(double measured, double predicted, double carried) {
            windows.add(new double[] {measured, predicted, carried});
        }

        double mean() {
            double s = 0;
            for (double[] w : windows) {
                s += w[0] - w[1];
            }
            return s / windows.size();
        }

        /** Measured over predicted, summed over the windows (1 when nothing was predicted). */
        double ratio() {
            return ratio(-1);
        }

        /** Measured over predicted summed over the windows other than t. */
        private double ratio(int t) {
            double m = 0;
            double p = 0;
            for (int u = 0; u < windows.size(); u++) {
                m += u == t ? 0 : windows.get(u)[0];
                p += u == t ? 0 : windows.get(u)[1];
            }
            return p > 0 && m > 0 ? m / p : 1;
        }

        /**
         * Over the windows that can tell ({@link #changed}): the error predicting each with the mean
         * residual of the others, with their ratio of measured to predicted, and without the node
         * having anything of its own, and their measured load. Without is the better of two: no
         * offset at all, and the regions carrying the residuals (no offset in the first window).
         * Beating only the carried residuals would take noise for a node's own, since each window's
         * corrections are noisy and the others' mean is less so.
         */
        record HeldOut(double with, double scaled, double without, double load) {
        }

        /** Σ|measured − predicted| over every window. */
        double bareError() {
            return errorOver(this::predicted);
        }

        /**
         * Σ|measured − predicted(t)| over the windows that can tell ({@link #changed}) only: on a window
         * like the others a node's own load repeats the residual it was valued on, which says nothing
         * of how a move would land, and the bare prediction there says nothing either.
         */
        double whereChanged(IntToDoubleFunction predicted) {
            return errorOver(t -> changed(t) ? predicted.applyAsDouble(t) : windows.get(t)[0]);
        }

        /** Window t's prediction without anything of the node's own. */
        double predicted(int t) {
            return windows.get(t)[1];
        }

        /** Window t's prediction with the node's offset valued on the other windows (two or more). */
        private double withOffset(int t) {
            return windows.get(t)[1] + othersMean(t, 0) - othersMean(t, 1);
        }

        /** Window t's prediction with the node's speed valued on the other windows. */
        private double withSpeed(int t) {
            return ratio(t) * windows.get(t)[1];
        }

        /** Σ|measured − predicted(t)| over every window t. */
        private double errorOver(IntToDoubleFunction predicted) {
            double e = 0;
            for (int t = 0; t < windows.size(); t++) {
                e += Math.abs(windows.get(t)[0] - predicted.applyAsDouble(t));
            }
            return e;
        }

        HeldOut heldOut() {
            double with = 0;
            double scaled = 0;
            double bare = 0;
            double carried = 0;
            double load = 0;
            for (int t = 0; t < windows.size(); t++) {
                double[] w = windows.get(t);
                if (changed(t)) {
                    with += Math.abs(w[0] - withOffset(t));
                    scaled += Math.abs(w[0] - withSpeed(t));
                    bare += Math.abs(w[0] - w[1]);
                    carried += Math.abs(w[0] - (Double.isNaN(w[2]) ? w[1] : w[2]));
                    load += w[0];
                }
            }
            return new HeldOut(with, scaled, Math.min(bare, carried), load);
        }

        /**
         * Whether window t can tell the node's residual from its regions' (never with one window): its
         * predicted load differs enough from the other windows', or the regions carrying their
         * residuals would have given a total that differs enough from the node keeping its ratio.
         */
        private boolean changed(int t) {
            if (windows.size() < 2) {
                return false;
            }
            double load = 0;
            for (double[] w : windows) {
                load += w[0];
            }
            load /= windows.size();
            double[] w = windows.get(t);
            boolean regionsMoved = !Double.isNaN(w[2]) && Math.abs(w[2] - ratio(t) * w[1]) >= MIN_CHANGE * load;
            return regionsMoved || Math.abs(w[1] - othersMean(t, 1)) >= MIN_CHANGE * load;
        }

        /** The mean of the other windows' measured (k = 0) or predicted (k = 1) totals. */
        private double othersMean(int t, int k) {
            double s = 0;
            for (int u = 0; u < windows.size(); u++) {
                s += u == t ? 0 : windows.get(u)[k];
            }
            return s / (windows.size() - 1);
        }
    }
}
