package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Fits one dimension's cost model to node totals and judges it against the paper's mapping on
 * nodes it was not fitted on (grouped k-fold: a node's windows are held out together). A cluster
 * of fewer nodes than that needs (a 3-node ring) is judged on windows it was not fitted on
 * instead, once there are as many windows. The mapping, as a predictor of node totals, is the
 * prior's shape times one fitted scale.
 *
 * @param learnt     whether the learnt weights beat the mapping on held-out nodes and are used
 * @param weights    per {@link CostFeatures} weight (the constant included); the scaled prior when not learnt
 * @param fitError     held-out relative error of the model in use; NaN when there was too little data to judge (one node)
 * @param mappingError held-out relative error of the scaled mapping on the same folds; NaN when not judged
 * @param detail       what was learnt, or why the mapping was kept
 * @param tooAlike     whether the mapping was kept because a constant per node predicted the node totals as well
 *                     as any weights: they cannot tell what a region costs
 */
public record CostFit(Dimension dimension, boolean learnt, double[] weights, double fitError, double mappingError,
                      String detail, boolean tooAlike) {
    private static final double[] PULLS = {1e-3, 1e-2, 1e-1, 1, 10};
    private static final int MAX_FOLDS = 10;
    /** Weights of the model by kind: background, reads, writes. */
    private static final int KINDS = 3;
    /** Held-out groups (nodes, else windows) a fit needs before it is judged. */
    private static final int MIN_FOLDS = 4;
    /** The learnt model must beat the mapping's held-out error by this fraction, so noise does not flip it. */
    private static final double MARGIN = 0.02;
    /** Held-out errors within this fraction (plus the absolute term) of the lowest count as equal. */
    static final double SAME_ERROR = 0.1;
    static final double SAME_ERROR_ABSOLUTE = 0.002;
    /** Weights learnt node by node must predict the changes this much better, so noise does not flip them. */
    static final double WITHIN_MARGIN = 0.1;
    /** Why the mapping is kept where a constant per node predicts the node totals as well as any weights. */
    private static final String TOO_ALIKE = "node totals too alike to tell what regions cost";

    /** Per-region cost of one feature vector (the constant excluded). */
    public double cost(double[] x) {
        double s = 0;
        for (int k = 1; k < weights.length; k++) {
            s += weights[k] * x[k];
        }
        return s;
    }

    /** A fit whose totals could tell what a region costs (or were too few to judge it). */
    public CostFit(Dimension dimension, boolean learnt, double[] weights, double fitError, double mappingError,
                   String detail) {
        this(dimension, learnt, weights, fitError, mappingError, detail, false);
    }

    public double background() {
        return weights[CostFeatures.BACKGROUND];
    }

    static CostFit fit(Dimension d, List<NodeSample> samples, double[] priorShape, boolean learn) {
        Folds folds = Folds.of(samples);
        Moments all = Moments.of(d, samples, priorShape);
        boolean[] dropped = all.collinear();
        Moments[] held = folds.moments(d, samples, priorShape);
        // the scaled mapping has one weight, so it can be judged on held-out nodes even when data is thin
        double mappingError = folds.groups().size() < 2 ? Double.NaN : heldOutError(all, held, folds, samples, d, Moments::scaledPrior);
        String thin = thin(all, folds);
        if (thin != null) {
            boolean twoWeights = learn && folds.groups().size() >= MIN_FOLDS;
            Optional<CostFit> two = twoWeights
                    ? withBackground(d, samples, all, held, folds, mappingError).filter(CostFit::regionsCost) : Optional.empty();
            Optional<CostFit> three = twoWeights && all.count() >= KINDS + 2
                    ? byKind(d, samples, all, held, folds, mappingError).filter(CostFit::regionsCost) : Optional.empty();
            return lower(two, three).orElseGet(() -> mapping(d, all, mappingError, thin));
        }
        if (!learn) {
            return mapping(d, all, mappingError, "mapping: learning is off");
        }
        double[] errors = new double[PULLS.length];
        double lowest = Double.POSITIVE_INFINITY;
        for (int m = 0; m < PULLS.length; m++) {
            errors[m] = heldOutError(all, held, folds, samples, d, fitWith(PULLS[m], dropped));
            lowest = Math.min(lowest, errors[m]);
        }
        // Node totals often cannot tell a feature from the per-node constant; among pulls that
        // predict about as well, the strongest pull toward the prior settles what the data cannot.
        int best = 0;
        for (int m = 0; m < PULLS.length; m++) {
            if (sameError(errors[m], lowest)) {
                best = m;
            }
        }
        double bestError = errors[best];
        String collinear = collinearNote(dropped);
        // a constant per node predicting as well: the totals (a balanced cluster) cannot tell what a
        // region costs, and the pull alone would settle how much is background; only their changes can
        double constantError = heldOutError(all, held, folds, samples, d, Moments::backgroundOnly);
        if (!(bestError < constantError * (1 - MARGIN))) {
            CostFit kept = mapping(d, all, mappingError, String.format(Locale.ROOT, "mapping kept: learnt %.1f%% vs a"
                    + " constant %.1f%% held-out error, " + TOO_ALIKE + "%s", 100 * bestError,
                    100 * constantError, collinear), true);
            return withinNode(d, samples, all, dropped, kept).orElse(kept);
        }
        if (!(bestError < mappingError * (1 - MARGIN))) {
            CostFit kept = mapping(d, all, mappingError, String.format(Locale.ROOT,
                    "mapping kept: learnt %.1f%% vs mapping %.1f%% held-out error%s", 100 * bestError, 100 * mappingError,
                    collinear));
            return withinNode(d, samples, all, dropped, kept).orElse(kept);
        }
        double[] w = all.solve(PULLS[best], dropped);
        if (!regionsCost(w)) {
            CostFit kept = mapping(d, all, mappingError, "mapping kept: the learnt weights give the regions no cost, only"
                    + " a background" + collinear);
            return withinNode(d, samples, all, dropped, kept).orElse(kept);
        }
        CostFit pooled = new CostFit(d, true, w, bestError, mappingError, String.format(Locale.ROOT,
                "learnt from %d samples of %d nodes: %.1f%% held-out error%s (mapping %.1f%%), %s%s",
                samples.size(), folds.nodes(), 100 * bestError, folds.byWindow() ? " on windows left out" : "",
                100 * mappingError, describe(w), collinear));
        return withinNode(d, samples, all, dropped, pooled).orElse(pooled);
    }

    /**
     * The weights learnt node by node ({@link WithinNode}), where they predict the changes of node
     * totals on windows left out better than {@code pooled}'s weights do by {@link #WITHIN_MARGIN}
     * (pooled's fitted on every window, which flatters it); at least three windows, so each
     * left-out window leaves two to learn from. The background is then what the weights leave of
     * the node totals, per node of mean size.
     */
    private static Optional<CostFit> withinNode(Dimension d, List<NodeSample> samples, Moments all, boolean[] dropped,
                                                CostFit pooled) {
        if (WithinNode.windows(samples) < 3) {
            return Optional.empty();
        }
        double[] prior = all.scaledPrior(dropped);
        WithinNode.Nodes nodes = WithinNode.Nodes.of(d, samples);
        double pooledError = WithinNode.changeError(nodes, t -> pooled.weights());
        double best = Double.POSITIVE_INFINITY;
        double pull = PULLS[0];
        for (double mu : PULLS) {
            double e = WithinNode.changeError(nodes, t -> WithinNode.fit(nodes, t, prior, mu, dropped));
            if (e < best) {
                best = e;
                pull = mu;
            }
        }
        if (!(best < (1 - WITHIN_MARGIN) * pooledError)) {
            return Optional.empty();
        }
        double[] w = WithinNode.fit(nodes, -1, prior, pull, dropped);
        w[CostFeatures.BACKGROUND] = 0;
        w[CostFeatures.BACKGROUND] = background(d, samples, w);
        if (!regionsCost(w)) {
            return Optional.empty();
        }
        return Optional.of(new CostFit(d, true, w, best, pooled.mappingError(), String.format(Locale.ROOT,
                "learnt node by node, from how each node's total changed with its regions over %d windows: %.1f%%"
                + " error on windows left out (%.1f%% with the weights fitted across nodes), %s%s",
                WithinNode.windows(samples), 100 * best, 100 * pooledError, describe(w), collinearNote(dropped))));
    }

    /** Whether this fit gives the regions any cost ({@link #regionsCost(double[])}). */
    boolean regionsCost() {
        return regionsCost(weights);
    }

    /**
     * Whether {@code w} gives any region feature a cost. When node totals follow something the
     * features do not see (speeds that differ from node to node, nodes with more work being the
     * faster ones), the best fit of non-negative weights can be the background alone: a constant
     * that predicts the mean of node totals. Under it no move shifts any load, so a cluster far
     * out of balance would stay there; such a fit is not used.
     */
    static boolean regionsCost(double[] w) {
        for (int k = 0; k < w.length; k++) {
            if (!CostFeatures.perNode(k) && w[k] > 0) {
                return true;
            }
        }
        return false;
    }

    /** The background per node of mean size that, with {@code w} (background 0), fits the node totals best (non-negative). */
    private static double background(Dimension d, List<NodeSample> samples, double[] w) {
        double num = 0;
        double den = 0;
        for (NodeSample s : samples) {
            double size = s.features(d)[CostFeatures.BACKGROUND];
            num += size * (s.measured(d) - dot(w, s.features(d)));
            den += size * size;
        }
        return den > 0 ? Math.max(0, num / den) : 0;
    }

    /** The mapping with one background for every node, where its held-out error beats the mapping's. */
    private static Optional<CostFit> withBackground(Dimension d, List<NodeSample> samples, Moments all, Moments[] held,
                                                    Folds folds, double mappingError) {
        double e = heldOutError(all, held, folds, samples, d, Moments::scaledPriorWithBackground);
        if (!(e < mappingError * (1 - MARGIN))) {
            return Optional.empty();
        }
        double[] w = all.scaledPriorWithBackground();
        return Optional.of(new CostFit(d, true, w, e, mappingError, String.format(Locale.ROOT,
                "the mapping with a per-node background, from %d samples of %d nodes (too few for every weight):"
                + " %.1f%% held-out error (mapping %.1f%%), background %.3g", samples.size(), folds.nodes(), 100 * e,
                100 * mappingError, w[CostFeatures.BACKGROUND])));
    }

    /**
     * The mapping's read and write parts scaled apart plus a background ({@link Moments#scaledPriorByKind}),
     * at the pull toward the two-weight model that predicts held-out nodes best, where that beats the mapping.
     */
    private static Optional<CostFit> byKind(Dimension d, List<NodeSample> samples, Moments all, Moments[] held,
                                            Folds folds, double mappingError) {
        double best = Double.POSITIVE_INFINITY;
        double pull = PULLS[PULLS.length - 1];
        for (double mu : PULLS) {
            double e = heldOutError(all, held, folds, samples, d, m -> m.scaledPriorByKind(mu));
            if (e < best) {
                best = e;
                pull = mu;
            }
        }
        if (!(best < mappingError * (1 - MARGIN))) {
            return Optional.empty();
        }
        double[] w = all.scaledPriorByKind(pull);
        return Optional.of(new CostFit(d, true, w, best, mappingError, String.format(Locale.ROOT,
                "the mapping with its reads and writes scaled apart and a per-node background, from %d samples of %d"
                + " nodes (too few for every weight): %.1f%% held-out error (mapping %.1f%%), %s", samples.size(),
                folds.nodes(), 100 * best, 100 * mappingError, describe(w))));
    }

    /** Whether held-out error {@code e} predicts about as well as {@code lowest}: within their noise. */
    static boolean sameError(double e, double lowest) {
        return e <= lowest * (1 + SAME_ERROR) + SAME_ERROR_ABSOLUTE;
    }

    /** The fit of lower held-out error, if any; the simpler one where they predict about as well. */
    private static Optional<CostFit> lower(Optional<CostFit> simpler, Optional<CostFit> richer) {
        if (simpler.isEmpty() || richer.isEmpty()) {
            return simpler.isPresent() ? simpler : richer;
        }
        double e = richer.get().fitError();
        return sameError(simpler.get().fitError(), e) ? simpler : richer;
    }

    private static String collinearNote(boolean[] dropped) {
        List<String> names = new ArrayList<>();
        for (int k = 0; k < dropped.length; k++) {
            if (dropped[k]) {
                names.add(CostFeatures.name(k));
            }
        }
        return names.isEmpty() ? "" : "; collinear, left out: " + String.join(", ", names);
    }

    private static String thin(Moments all, Folds folds) {
        int active = all.activeFeatures();
        if (folds.groups().size() < MIN_FOLDS || all.count() < active + 2) {
            return String.format(Locale.ROOT, "mapping kept: thin data, %d samples of %d nodes for %d weights",
                    all.count(), folds.nodes(), active);
        }
        return null;
    }

    private static CostFit mapping(Dimension d, Moments all, double error, String why) {
        return mapping(d, all, error, why, false);
    }

    private static CostFit mapping(Dimension d, Moments all, double error, String why, boolean tooAlike) {
        return new CostFit(d, false, all.scaledPrior(), error, error, why, tooAlike);
    }

    /** The learnt weights at one pull toward the prior, as a model to judge on held-out folds. */
    private static Function<Moments, double[]> fitWith(double pull, boolean[] dropped) {
        return m -> m.solve(pull, dropped);
    }

    /** Relative absolute error predicting each held-out fold with {@code model} fitted on the rest. */
    private static double heldOutError(Moments all, Moments[] held, Folds folds, List<NodeSample> samples,
                                       Dimension d, Function<Moments, double[]> model) {
        double err = 0;
        double total = 0;
        for (int f = 0; f < held.length; f++) {
            double[] w = model.apply(all.minus(held[f]));
            for (int i : folds.members(f)) {
                NodeSample s = samples.get(i);
                double y = s.measured(d);
                err += Math.abs(dot(w, s.features(d)) - y);
                total += Math.abs(y);
            }
        }
        return total > 0 ? err / total : 0;
    }

    static double dot(double[] w, double[] x) {
        double s = 0;
        for (int k = 0; k < w.length; k++) {
            s += w[k] * x[k];
        }
        return s;
    }

    private static String describe(double[] w) {
        List<String> parts = new ArrayList<>();
        for (int k = 0; k < w.length; k++) {
            if (w[k] > 0) {
                parts.add(CostFeatures.name(k) + " " + String.format(Locale.ROOT, "%.3g", w[k]));
            }
        }
        return String.join(", ", parts);
    }

    /**
     * Samples grouped into folds by node, so a held-out node is predicted from the others only; on a
     * cluster of fewer nodes than {@link #MIN_FOLDS} with at least that many windows, by window.
     */
    record Folds(List<List<Integer>> groups, int nodes, boolean byWindow) {
        static Folds of(List<NodeSample> samples) {
            Map<String, Integer> nodeIndex = index(samples, NodeSample::node);
            Map<Integer, Integer> windowIndex = index(samples, NodeSample::window);
            boolean byWindow = nodeIndex.size() < MIN_FOLDS && windowIndex.size() >= MIN_FOLDS;
            int k = Math.max(1, Math.min(MAX_FOLDS, byWindow ? windowIndex.size() : nodeIndex.size()));
            List<List<Integer>> groups = new ArrayList<>(k);
            for (int f = 0; f < k; f++) {
                groups.add(new ArrayList<>());
            }
            for (int i = 0; i < samples.size(); i++) {
                NodeSample s = samples.get(i);
                groups.get((byWindow ? windowIndex.get(s.window()) : nodeIndex.get(s.node())) % k).add(i);
            }
            return new Folds(groups, nodeIndex.size(), byWindow);
        }

        private static <K> Map<K, Integer> index(List<NodeSample> samples, Function<NodeSample, K> key) {
            Map<K, Integer> index = new HashMap<>();
            for (NodeSample s : samples) {
                index.putIfAbsent(key.apply(s), index.size());
            }
            return index;
        }

        List<Integer> members(int f) {
            return groups.get(f);
        }

        Moments[] moments(Dimension d, List<NodeSample> samples, double[] prior) {
            Moments[] out = new Moments[groups.size()];
            for (int f = 0; f < out.length; f++) {
                List<NodeSample> part = new ArrayList<>(groups.get(f).size());
                groups.get(f).forEach(i -> part.add(samples.get(i)));
                out[f] = Moments.of(d, part, prior);
            }
            return out;
        }
    }
}
