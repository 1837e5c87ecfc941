package io.libra.core;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which key ranges sit on which node (and, on a ring, which tokens each node holds): what a window
 * shows of the plans carried out before it. Ranges, not region ids, so that a store naming the halves
 * of a split its own way still shows the split.
 *
 * @param placed each region as "table|startKey|endKey|node"
 * @param ring   each node's tokens (empty off a ring)
 */
record Layout(Set<String> placed, Map<String, Set<String>> ring) {

    static Layout of(ClusterSnapshot w) {
        Set<String> placed = new HashSet<>(w.regions().size() * 2);
        w.regions().forEach(r -> placed.add(key(r.table(), r.range(), r.node())));
        return new Layout(placed, ring(w.ring()));
    }

    /**
     * The layout {@code w} has once every action of {@code p} is carried out; empty when an action
     * names a region or token the window does not have. On a ring only the tokens are compared: its
     * ranges follow from them.
     */
    static Optional<Layout> after(ClusterSnapshot w, Plan p) {
        Map<String, Region> regions = new LinkedHashMap<>();
        w.regions().forEach(r -> regions.put(r.id(), r));
        Map<String, Set<String>> ring = ring(w.ring());
        for (Action a : p.actions()) {
            if (!apply(a, regions, ring)) {
                return Optional.empty();
            }
        }
        if (!w.ring().isEmpty()) {
            return Optional.of(new Layout(Set.of(), ring));
        }
        Set<String> placed = new HashSet<>(regions.size() * 2);
        regions.values().forEach(r -> placed.add(key(r.table(), r.range(), r.node())));
        return Optional.of(new Layout(placed, ring));
    }

    /** Whether {@code other} shows the same layout, on a ring the same tokens. */
    boolean sameAs(Layout other) {
        return ring.equals(other.ring) && (!ring.isEmpty() || placed.equals(other.placed));
    }

    private static boolean apply(Action a, Map<String, Region> regions, Map<String, Set<String>> ring) {
        if (a instanceof MoveTokenAction t) {
            Set<String> tokens = ring.get(t.node());
            return tokens != null && tokens.remove(t.fromToken()) && tokens.add(t.toToken());
        }
        if (a instanceof MoveAction m) {
            Region r = regions.get(m.region());
            return r != null && regions.put(m.region(), r.onNode(m.to())) != null;
        }
        if (a instanceof SplitAction s) {
            Region r = regions.remove(s.region());
            if (r == null || !r.range().strictlyContains(s.splitKey())) {
                return false;
            }
            regions.put(s.left(), at(s.left(), r, r.range().left(s.splitKey())));
            regions.put(s.right(), at(s.right(), r, r.range().right(s.splitKey())));
            return true;
        }
        return merge((MergeAction) a, regions);
    }

    private static boolean merge(MergeAction m, Map<String, Region> regions) {
        List<Region> parts = new ArrayList<>();
        for (String id : m.regions()) {
            Region r = regions.remove(id);
            if (r == null) {
                return false;
            }
            parts.add(r);
        }
        parts.sort(Comparator.comparing(r -> r.range().startKey()));
        Region first = parts.get(0);
        KeyRange whole = new KeyRange(first.range().startKey(), parts.get(parts.size() - 1).range().endKey());
        regions.put(m.merged(), at(m.merged(), first, whole).onNode(m.node()));
        return true;
    }

    /** A region standing for part of {@code r}: only its table, range and node count here. */
    private static Region at(String id, Region r, KeyRange range) {
        return new Region(id, r.table(), range, r.node(), 0, r.counters());
    }

    private static String key(String table, KeyRange range, String node) {
        return table + '|' + range.startKey() + '|' + range.endKey() + '|' + node;
    }

    private static Map<String, Set<String>> ring(Map<String, List<String>> ring) {
        Map<String, Set<String>> out = new HashMap<>();
        ring.forEach((node, tokens) -> out.put(node, new HashSet<>(tokens)));
        return out;
    }
}
