package io.libra.hbase.balancer;

import io.libra.core.estimate.History;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.OwnLoad;
import io.libra.core.plan.Plan;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What one group of servers' runs learn from: the last windows (the core fits each region's
 * cost on them) and the plan of the moves the balancer actually returned, whose forecast the
 * next window checks. {@link HistoryStore} keeps a copy under {@code hbase.rootdir}, so a restarted
 * or failover master goes on from it.
 */
final class PlanMemory {
    /** A claimed gain in Δ below this is noise, not a forecast worth checking. */
    static final double NOTHING = 0.005;

    private final Deque<ClusterSnapshot> windows = new ArrayDeque<>();
    private Plan carriedOut;
    private int splitsRequested;
    /** What the last estimate found nodes carry of their own, whether or not its plan moved anything. */
    private List<OwnLoad> ownLoad = List.of();
    private FlowError flowError;

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
     * shows at its destination (a moved region split since counts by its daughters). Splits
     * requested by that run do not stop the check: the forecast is of node totals, and a split
     * moves no load between servers. Otherwise empty, and {@code log} hears why.
     */
    Optional<Plan> toCheck(ClusterSnapshot now, Consumer<String> log) {
        if (carriedOut == null) {
            return Optional.empty();
        }
        Map<String, String> nodeOf = new HashMap<>();
        for (Region r : now.regions()) {
            nodeOf.put(r.id(), r.node());
        }
        for (Action a : carriedOut.actions()) {
            if (a instanceof MoveAction m) {
                String where = nodeOf.containsKey(m.region()) ? nodeOf.get(m.region()) : daughtersNode(m.region(), now);
                if (!m.to().equals(where)) {
                    log.accept("last run's forecast not checked: region " + m.region() + " is on "
                            + where + ", not on its destination " + m.to());
                    return Optional.empty();
                }
            }
        }
        if (splitsRequested > 0) {
            log.accept("last run's forecast checked on node totals although it requested " + splitsRequested
                    + " split(s): a split moves no load between servers");
        }
        return Optional.of(carriedOut);
    }

    /**
     * Where the daughters of a region gone since are (the regions sharing its keys, known from a
     * remembered window, or the one it was merged into): their server when they share one, else a
     * description.
     */
    private String daughtersNode(String parent, ClusterSnapshot now) {
        Optional<Region> p = remembered(parent);
        if (p.isEmpty()) {
            return "no server";
        }
        Set<String> nodes = now.nodesSharingKeysWith(p.get());
        return nodes.size() == 1 ? nodes.iterator().next()
                : nodes.isEmpty() ? "no server" : "several servers (its daughters on " + nodes + ")";
    }

    private Optional<Region> remembered(String id) {
        Iterator<ClusterSnapshot> newestFirst = windows.descendingIterator();
        while (newestFirst.hasNext()) {
            for (Region r : newestFirst.next().regions()) {
                if (r.id().equals(id)) {
                    return Optional.of(r);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Remembers this run's window (the last {@code max} are kept; null: nothing to learn from it)
     * and the plan of the moves it carried out. A run that moved nothing, or whose moves claim to
     * fix next to nothing (region-count moves, say), leaves nothing to check: any noise between
     * two windows would count as a miss and make the next plan conservative. {@code max} 0
     * forgets everything.
     */
    void remember(ClusterSnapshot window, Plan plan, int splits, int max) {
        if (max <= 0) {
            windows.clear();
            carriedOut = null;
            ownLoad = List.of();
            flowError = null;
            return;
        }
        if (window != null) {
            windows.addLast(window);
        }
        while (windows.size() > max) {
            windows.removeFirst();
        }
        // a revert is checked on the forecast it carries, and must be remembered with the moves it took back
        carriedOut = plan == null || plan.actions().isEmpty() || claimsNothing(plan) && !plan.isRevert() ? null : plan;
        splitsRequested = splits;
    }

    /**
     * Remembers the window of a run held back while Δ stayed above λ (it moved nothing): the last
     * moves' forecast stays the one to check, so a miss the model cannot express keeps the next
     * runs conservative while a transient one fades as the servers settle toward the forecast. The
     * {@code held} plan, which carries that forecast on, is the one checked next, as core's closed
     * loop checks it: the check is then one carried by a hold, which a measured step can end
     * (core's MeasuredStep) where checking the old moves again would hold for good.
     */
    void heldBack(ClusterSnapshot window, Plan held, int max) {
        Plan still = carriedOut;
        int splits = splitsRequested;
        remember(window, null, 0, max);
        carriedOut = max > 0 && still != null ? held : null;
        splitsRequested = max > 0 ? splits : 0;
    }

    /** Whether the plan claims to lower Δ by less than {@value #NOTHING} (half a percent), or says nothing of it. */
    private static boolean claimsNothing(Plan plan) {
        return plan.before() == null || plan.predicted() == null
                || plan.before().imbalanceDegree() - plan.predicted().imbalanceDegree() < NOTHING;
    }

    int windows() {
        return windows.size();
    }

    /**
     * Keeps what {@code how} found nodes carry of their own, and the flow error it planned with, for
     * the next run: a run that moved nothing keeps no plan to check, and the next would forget both.
     */
    void estimated(Estimation how) {
        ownLoad = how == null ? List.of() : how.ownLoad();
        flowError = how == null ? flowError : how.flowError();
    }

    List<OwnLoad> ownLoad() {
        return ownLoad;
    }

    /** The flow error the last plan was made with; null before any plan made after another. */
    FlowError flowError() {
        return flowError;
    }

    /** What is remembered, as {@link HistoryStore} saves it. */
    record State(List<ClusterSnapshot> windows, Plan carriedOut, int splitsRequested, List<OwnLoad> ownLoad,
                 FlowError flowError) {
        State {
            windows = List.copyOf(windows);
            ownLoad = List.copyOf(ownLoad);
        }
    }

    State state() {
        return new State(new ArrayList<>(windows), carriedOut, splitsRequested, ownLoad, flowError);
    }

    /** Takes over a saved state (another master's, before a restart or failover). */
    void restore(State s) {
        windows.clear();
        windows.addAll(s.windows());
        carriedOut = s.carriedOut();
        splitsRequested = s.splitsRequested();
        ownLoad = s.ownLoad();
        flowError = s.flowError();
    }
}
