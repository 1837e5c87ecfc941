package io.libra.hbase.balancer;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Reason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The secondary objective: every server's region count within {@code band} of the mean (an
 * empty or new RegionServer gets filled). It runs after the CPU/disk plan of the run, on the
 * state that plan leaves, and moves the lightest regions (fewest store-file bytes among equals)
 * from the fullest server to the emptiest, only where the destination stays within 1 + λ in
 * both dimensions and below the cluster's current peak: it never undoes CPU/disk balance.
 */
final class RegionCountBand {
    private final double band;
    private final double lambda;

    RegionCountBand(double band, double lambda) {
        this.band = band;
        this.lambda = lambda;
    }

    /**
     * Extra moves, at most {@code budget}, on {@code model} (the state after this run's moves),
     * where {@code counts} are the servers' region counts then (pinned regions included).
     */
    List<MoveAction> moves(LoadModel model, Map<String, Integer> counts, Placement placement, Set<String> touched,
                           Map<String, Double> sizes, int budget) {
        Map<String, Integer> c = new HashMap<>(counts);
        model.nodes().forEach(n -> c.putIfAbsent(n.id(), 0));
        c.keySet().removeIf(n -> !model.hasNode(n)); // servers held out of this run
        double mean = c.values().stream().mapToInt(Integer::intValue).average().orElse(0);
        double hi = Math.ceil(mean * (1 + band));
        double lo = Math.floor(mean * (1 - band));
        List<MoveAction> out = new ArrayList<>();
        Set<String> exhausted = new HashSet<>();
        LoadModel m = model;
        while (out.size() < budget) {
            String src = extreme(c, exhausted, true);
            String dst = extreme(c, placement.noDestinations(), false);
            if (src == null || dst == null || c.get(src) - c.get(dst) <= 1 || !(c.get(src) > hi || c.get(dst) < lo)) {
                break;
            }
            MoveAction move = lightest(m, src, dst, placement, touched, sizes, c);
            if (move == null) {
                exhausted.add(src);
                continue;
            }
            out.add(move);
            touched.add(move.region());
            placement.moved(move.region(), dst);
            c.merge(src, -1, Integer::sum);
            c.merge(dst, 1, Integer::sum);
            m = moved(m, move.region(), dst);
        }
        return out;
    }

    private static String extreme(Map<String, Integer> c, Set<String> exhausted, boolean most) {
        Comparator<Map.Entry<String, Integer>> byCount = Map.Entry.comparingByValue();
        return c.entrySet().stream().filter(e -> !exhausted.contains(e.getKey()))
                .max(most ? byCount : byCount.reversed()).map(Map.Entry::getKey).orElse(null);
    }

    private MoveAction lightest(LoadModel m, String src, String dst, Placement placement, Set<String> touched,
                                Map<String, Double> sizes, Map<String, Integer> c) {
        int d = m.nodeIndex(dst);
        List<RegionLoad> candidates = new ArrayList<>();
        for (RegionLoad r : m.regions()) {
            if (r.node().equals(src) && !touched.contains(r.id())) {
                candidates.add(r);
            }
        }
        candidates.sort(Comparator.<RegionLoad>comparingDouble(r -> weight(m, r, d))
                .thenComparingDouble(r -> sizes.getOrDefault(r.id(), 0.0)));
        for (RegionLoad r : candidates) {
            boolean fits = true;
            for (Dimension dim : Dimension.values()) {
                double after = (m.load(d, dim) + r.of(dim)) / Math.max(m.target(d, dim), 1e-300);
                fits &= m.target(d, dim) <= 0 || after < 1 + lambda;
            }
            if (fits && placement.refuseMove(r.id(), dst) == null) {
                String note = String.format(Locale.ROOT, "region count: %s has %d regions, %s has %d (band ±%.0f%% "
                        + "around the mean); lightest region, destination stays within 1+λ", src, c.get(src), dst,
                        c.get(dst), band * 100);
                Reason why = new Reason(Dimension.CPU, List.of(Constraint.LOAD_CONSTRAINT),
                        new NodeDeviation(src, m.deviation(m.nodeIndex(src)), m.deviation(m.nodeIndex(src))),
                        new NodeDeviation(dst, m.deviation(d), m.deviation(d)), note);
                return new MoveAction(r.id(), src, dst, sizes.getOrDefault(r.id(), 0.0), why);
            }
        }
        return null;
    }

    /** A region's load as a share of the destination's target, in its heavier dimension. */
    private static double weight(LoadModel m, RegionLoad r, int dst) {
        double w = 0;
        for (Dimension dim : Dimension.values()) {
            double t = m.target(dst, dim);
            w = Math.max(w, t > 0 ? r.of(dim) / t : 0);
        }
        return w;
    }

    private static LoadModel moved(LoadModel m, String region, String dst) {
        List<RegionLoad> regions = new ArrayList<>(m.regions().size());
        for (RegionLoad r : m.regions()) {
            regions.add(r.id().equals(region) ? new RegionLoad(r.region().onNode(dst), r.cpu(), r.disk()) : r);
        }
        return m.withRegions(regions);
    }
}
