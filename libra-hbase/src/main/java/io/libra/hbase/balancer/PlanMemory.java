package io.libra.hbase.balancer;

import io.libra.core.estimate.History;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What one group of servers' runs learn from: the last windows (the core fits each region's
 * cost on them) and the plan of the moves the balancer actually returned, whose forecast the
 * next window checks. {@link HistoryStore} keeps a copy under {@code hbase.rootdir}, so a restarted
 * or failover master goes on from it.
 */
final class PlanMemory {
    private final Deque<ClusterSnapshot> windows = new ArrayDeque<>();
    private Plan carriedOut;
    private int splitsRequested;

    /**
     * The remembered windows that belong with {@code now}, oldest first. A window that does not
     * (another store, out of order, other servers) is forgotten, with one line to {@code log}.
     */
    List<ClusterSnapshot> history(ClusterSnapshot now, Consumer<String> log) {
        List<ClusterSnapshot> kept = new ArrayList<>(windows);
        while (!kept.isEmpty()) {
            try {
                History.check(now, kept);
                break;
            } catch (History.MismatchException e) {
                ClusterSnapshot dropped = kept.remove(e.window());
                log.accept("history window of " + dropped.capturedAt() + " dropped, it does not belong with this one: "
                        + e.getMessage());
            }
        }
        windows.clear();
        windows.addAll(kept);
        return kept;
    }

    /**
     * The last carried-out plan when {@code now} can check its forecast: every move it returned
     * shows at its destination and it requested no split (daughters compact and restart their
     * counters, which no forecast models). Otherwise empty, and {@code log} hears why.
     */
    Optional<Plan> toCheck(ClusterSnapshot now, Consumer<String> log) {
        if (carriedOut == null) {
            return Optional.empty();
        }
        if (splitsRequested > 0) {
            log.accept("last run's forecast not checked: it requested " + splitsRequested
                    + " split(s), whose daughters compact and restart their counters");
            return Optional.empty();
        }
        Map<String, String> nodeOf = new HashMap<>();
        for (Region r : now.regions()) {
            nodeOf.put(r.id(), r.node());
        }
        for (Action a : carriedOut.actions()) {
            if (a instanceof MoveAction m && !m.to().equals(nodeOf.get(m.region()))) {
                log.accept("last run's forecast not checked: region " + m.region() + " is on "
                        + nodeOf.getOrDefault(m.region(), "no server") + ", not on its destination " + m.to());
                return Optional.empty();
            }
        }
        return Optional.of(carriedOut);
    }

    /**
     * Remembers this run's window (the last {@code max} are kept; null: nothing to learn from it)
     * and the plan of the moves it carried out. A run that moved nothing leaves nothing to check:
     * its "forecast" would claim to fix nothing, so any noise between two windows would count as
     * a miss and make the next plan conservative. {@code max} 0 forgets everything.
     */
    void remember(ClusterSnapshot window, Plan plan, int splits, int max) {
        if (max <= 0) {
            windows.clear();
            carriedOut = null;
            return;
        }
        if (window != null) {
            windows.addLast(window);
        }
        while (windows.size() > max) {
            windows.removeFirst();
        }
        carriedOut = plan == null || plan.actions().isEmpty() ? null : plan;
        splitsRequested = splits;
    }

    int windows() {
        return windows.size();
    }

    /** What is remembered, as {@link HistoryStore} saves it. */
    record State(List<ClusterSnapshot> windows, Plan carriedOut, int splitsRequested) {
        State {
            windows = List.copyOf(windows);
        }
    }

    State state() {
        return new State(new ArrayList<>(windows), carriedOut, splitsRequested);
    }

    /** Takes over a saved state (another master's, before a restart or failover). */
    void restore(State s) {
        windows.clear();
        windows.addAll(s.windows());
        carriedOut = s.carriedOut();
        splitsRequested = s.splitsRequested();
    }
}
