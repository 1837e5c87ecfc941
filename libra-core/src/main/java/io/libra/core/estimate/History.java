package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Checks that earlier windows belong to the same cluster as the current one and come in order
 * (formats.md: oldest first, the same node ids; regions may have moved or split since).
 */
public final class History {
    private History() {
    }

    /** Thrown for the first window that does not fit; {@code window} indexes the history list. */
    public static final class MismatchException extends IllegalArgumentException {
        private final int window;
        private final String field;

        MismatchException(int window, String field, String reason) {
            super(field + ": " + reason);
            this.window = window;
            this.field = field;
        }

        public int window() {
            return window;
        }

        public String field() {
            return field;
        }
    }

    public static void check(ClusterSnapshot current, List<ClusterSnapshot> windows) {
        Set<String> ids = ids(current.nodes());
        for (int i = 0; i < windows.size(); i++) {
            ClusterSnapshot w = windows.get(i);
            if (!Objects.equals(w.store(), current.store())) {
                throw new MismatchException(i, "store", "\"" + w.store() + "\" but the snapshot is \"" + current.store() + "\"");
            }
            ClusterSnapshot next = i + 1 < windows.size() ? windows.get(i + 1) : current;
            if (w.capturedAt() != null && next.capturedAt() != null && w.capturedAt().isAfter(next.capturedAt())) {
                throw new MismatchException(i, "capturedAt", w.capturedAt() + " is after the next window's "
                        + next.capturedAt() + " (give history oldest first, each before the snapshot)");
            }
            Set<String> window = ids(w.nodes());
            if (!sharesEnough(ids, window)) {
                window.retainAll(ids);
                throw new MismatchException(i, "nodes", "shares " + window.size() + " of the snapshot's " + ids.size()
                        + " node ids: a different cluster?");
            }
        }
    }

    /**
     * Whether a window of nodes {@code window} belongs with a cluster of nodes {@code current}: it
     * shares at least half of them (nodes joined, left or were replaced since, not another cluster).
     */
    public static boolean sharesEnough(Set<String> current, Set<String> window) {
        Set<String> shared = new HashSet<>(window);
        shared.retainAll(current);
        return shared.size() * 2 >= current.size();
    }

    private static Set<String> ids(List<Node> nodes) {
        Set<String> s = new HashSet<>();
        nodes.forEach(n -> s.add(n.id()));
        return s;
    }
}
