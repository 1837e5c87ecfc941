package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Cost weights learnt from how each node's total changed when its regions changed, window to window
 * (node fixed effects): each node is compared with itself only, so work of its own that no counter
 * explains cancels out. Node totals compared across nodes cannot do that on a cluster balanced
 * against such work: the planner gave the nodes with more of it fewer regions, so the totals are
 * nearly equal whatever the regions hold, and a pooled fit puts their cost in the background.
 *
 * <p>A model is judged on windows left out: each node's total in window t is predicted from its mean
 * over the other windows plus the weights times how its regions' features differ from their mean
 * there ({@link #changeError}); with no moves between windows there is nothing to judge.
 */
final class WithinNode {
    private WithinNode() {
    }

    /**
     * The weights fitted on the changes of every window but {@code leftOut} (-1: none), pulled toward
     * {@code prior} by {@code pull}; the background (a node's size, which does not change) keeps its prior.
     */
    static double[] fit(Nodes nodes, int leftOut, double[] prior, double pull, boolean[] dropped) {
        int k = prior.length;
        double[][] gram = new double[k][k];
        double[] xty = new double[k];
        for (int j = 0; j < nodes.samples.size(); j++) {
            List<NodeSample> kept = nodes.outside(j, leftOut);
            if (kept.size() < 2) {
                continue;
            }
            double[] mean = nodes.meanOf(j, leftOut, kept);
            double y0 = mean[k];
            for (NodeSample s : kept) {
                double[] x = s.features(nodes.d);
                double y = s.measured(nodes.d) - y0;
                for (int p = 1; p < k; p++) {
                    double xp = x[p] - mean[p];
                    xty[p] += xp * y;
                    for (int q = 1; q < k; q++) {
                        gram[p][q] += xp * (x[q] - mean[q]);
                    }
                }
            }
        }
        boolean[] fixed = dropped.clone();
        fixed[CostFeatures.BACKGROUND] = true;
        return RidgeNnls.solve(gram, xty, prior, pull, fixed);
    }

    /**
     * Σ over nodes and windows of |measured change − predicted change| / Σ measured, each window's
     * change taken from the node's mean over its other windows and predicted by the weights
     * {@code weights.apply(t)} fitted without window t; NaN when no node has two windows.
     */
    static double changeError(Nodes nodes, IntFunction<double[]> weights) {
        Map<Integer, double[]> byWindow = new HashMap<>();
        double err = 0;
        double total = 0;
        for (int j = 0; j < nodes.samples.size(); j++) {
            List<NodeSample> node = nodes.samples.get(j);
            if (node.size() < 2) {
                continue;
            }
            for (int i = 0; i < node.size(); i++) {
                NodeSample s = node.get(i);
                double[] mean = nodes.without[j][i];
                double[] w = byWindow.computeIfAbsent(s.window(), weights::apply);
                double[] x = s.features(nodes.d);
                double predicted = 0;
                for (int p = 1; p < x.length; p++) {
                    predicted += w[p] * (x[p] - mean[p]);
                }
                err += Math.abs(s.measured(nodes.d) - mean[x.length] - predicted);
                total += Math.abs(s.measured(nodes.d));
            }
        }
        return total > 0 ? err / total : Double.NaN;
    }

    /**
     * The samples grouped by node once for every fit and error of a dimension, with each node's
     * mean over all its windows and over all but each one (a fit and its error asked for them
     * again per window left out and per pull).
     */
    static final class Nodes {
        private final Dimension d;
        private final List<List<NodeSample>> samples;
        private final double[][] mean;
        private final double[][][] without;

        private Nodes(Dimension d, List<List<NodeSample>> samples) {
            this.d = d;
            this.samples = samples;
            this.mean = new double[samples.size()][];
            this.without = new double[samples.size()][][];
            for (int j = 0; j < samples.size(); j++) {
                List<NodeSample> node = samples.get(j);
                mean[j] = WithinNode.mean(d, node);
                without[j] = new double[node.size()][];
                for (int i = 0; i < node.size(); i++) {
                    NodeSample s = node.get(i);
                    without[j][i] = node.size() < 2 ? null : WithinNode.mean(d, node.stream().filter(o -> o != s).toList());
                }
            }
        }

        static Nodes of(Dimension d, List<NodeSample> samples) {
            return new Nodes(d, new ArrayList<>(byNode(samples).values()));
        }

        /** Node j's samples outside {@code window}, in their order. */
        private List<NodeSample> outside(int j, int window) {
            List<NodeSample> node = samples.get(j);
            List<NodeSample> kept = new ArrayList<>(node.size());
            for (NodeSample s : node) {
                if (s.window() != window) {
                    kept.add(s);
                }
            }
            return kept;
        }

        /** The mean of {@code kept}, node j's samples outside {@code window}: kept from the start when one or none was left out. */
        private double[] meanOf(int j, int window, List<NodeSample> kept) {
            List<NodeSample> node = samples.get(j);
            if (kept.size() == node.size()) {
                return mean[j];
            }
            if (kept.size() == node.size() - 1) {
                for (int i = 0; i < node.size(); i++) {
                    if (node.get(i).window() == window) {
                        return without[j][i];
                    }
                }
            }
            return WithinNode.mean(d, kept);
        }
    }

    /** The number of windows among the samples. */
    static int windows(List<NodeSample> samples) {
        return (int) samples.stream().mapToInt(NodeSample::window).distinct().count();
    }

    private static Map<String, List<NodeSample>> byNode(List<NodeSample> samples) {
        Map<String, List<NodeSample>> out = new HashMap<>();
        samples.forEach(s -> out.computeIfAbsent(s.node(), n -> new ArrayList<>()).add(s));
        return out;
    }

    /** The mean features of the samples, and at index k (one past them) their mean measured total. */
    private static double[] mean(Dimension d, List<NodeSample> samples) {
        int k = samples.get(0).features(d).length;
        double[] m = new double[k + 1];
        for (NodeSample s : samples) {
            double[] x = s.features(d);
            for (int p = 0; p < k; p++) {
                m[p] += x[p] / samples.size();
            }
            m[k] += s.measured(d) / samples.size();
        }
        return m;
    }
}
