package io.libra.core;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The splits and moves that take one window's layout to the next's, as far as the two show them: a
 * region found again under its id on another node moved; a region gone whose range the next window's
 * new regions tile was split there, and each piece on another node moved. Empty when something else
 * changed (a merge, a region no piece of the next window covers) or on a ring, whose token moves the
 * regions do not name.
 */
final class SeenChanges {
    private static final Reason SEEN = new Reason(null, List.of(), null, null, "seen carried out between the windows");

    private SeenChanges() {
    }

    static Optional<List<Action>> between(ClusterSnapshot w, ClusterSnapshot next) {
        if (!w.ring().isEmpty()) {
            return Optional.empty();
        }
        Map<String, Region> later = new HashMap<>(next.regions().size() * 2);
        next.regions().forEach(r -> later.put(r.id(), r));
        Set<String> accounted = new HashSet<>(w.regions().size() * 2);
        List<Action> splits = new ArrayList<>();
        List<Action> moves = new ArrayList<>();
        Map<String, List<Region>> pieces = pieces(w, next);
        for (Region r : w.regions()) {
            Region again = later.get(r.id());
            List<Region> parts = again != null ? List.of(again) : pieces.getOrDefault(r.id(), List.of());
            if (parts.isEmpty() || again == null && !split(r, parts, splits)) {
                return Optional.empty();
            }
            for (Region p : parts) {
                accounted.add(p.id());
                if (!p.node().equals(r.node())) {
                    moves.add(new MoveAction(p.id(), r.node(), p.node(), p.sizeBytes(), SEEN));
                }
            }
        }
        if (accounted.size() != next.regions().size()) {
            return Optional.empty();
        }
        splits.addAll(moves);
        return Optional.of(splits);
    }

    /** The next window's new regions by the region of {@code w} whose range holds each, in key order. */
    private static Map<String, List<Region>> pieces(ClusterSnapshot w, ClusterSnapshot next) {
        Map<String, TreeMap<String, Region>> byStart = new HashMap<>();
        w.regions().forEach(r -> byStart.computeIfAbsent(r.table(), t -> new TreeMap<>()).put(r.range().startKey(), r));
        Set<String> old = new HashSet<>(w.regions().size() * 2);
        w.regions().forEach(r -> old.add(r.id()));
        Map<String, List<Region>> out = new HashMap<>();
        for (Region n : next.regions()) {
            Map.Entry<String, Region> at = old.contains(n.id()) || !byStart.containsKey(n.table()) ? null
                    : byStart.get(n.table()).floorEntry(n.range().startKey());
            if (at != null && holds(at.getValue(), n)) {
                out.computeIfAbsent(at.getValue().id(), k -> new ArrayList<>()).add(n);
            }
        }
        out.values().forEach(l -> l.sort(Comparator.comparing(p -> p.range().startKey())));
        return out;
    }

    private static boolean holds(Region r, Region piece) {
        String s = piece.range().startKey();
        return (s.equals(r.range().startKey()) || r.range().strictlyContains(s))
                && (r.range().endKey().isEmpty() || !piece.range().endKey().isEmpty()
                && piece.range().endKey().compareTo(r.range().endKey()) <= 0);
    }

    /**
     * Splits {@code r} into {@code parts} (which must tile its range, in key order), one key at a time,
     * the piece still to split named after {@code r}; false when they do not tile it.
     */
    private static boolean split(Region r, List<Region> parts, List<Action> out) {
        if (parts.size() < 2 || !parts.get(0).range().startKey().equals(r.range().startKey())
                || !parts.get(parts.size() - 1).range().endKey().equals(r.range().endKey())) {
            return false;
        }
        String rest = r.id();
        for (int k = 0; k < parts.size() - 1; k++) {
            Region left = parts.get(k);
            if (!left.range().endKey().equals(parts.get(k + 1).range().startKey())) {
                return false;
            }
            String right = k == parts.size() - 2 ? parts.get(k + 1).id() : r.id() + "~" + (k + 1);
            out.add(new SplitAction(rest, left.range().endKey(), left.id(), right, Double.NaN, SEEN));
            rest = right;
        }
        return true;
    }
}
