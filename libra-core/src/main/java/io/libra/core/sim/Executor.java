package io.libra.core.sim;

import io.libra.core.model.KeyRange;
import io.libra.core.plan.Action;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Carries out plans on a {@link SimCluster} over windows of time, as a store's executor would:
 * a split takes effect {@link #SPLIT_DELAY} after it is asked for; a move copies the region at
 * {@link #MIGRATION_BYTES_PER_SEC} through a channel each node uses for one migration at a time,
 * costs disk, network and CPU on both ends while it runs, and switches the region when the copy
 * ends (possibly in a later window). Actions on regions that are in transition, unknown or not
 * where the plan says are skipped, as a real executor refuses them.
 */
final class Executor {
    static final double SPLIT_DELAY = 10;
    static final double MERGE_DELAY = 10;
    static final double MIGRATION_BYTES_PER_SEC = 100e6;

    private final CostModel cost;
    private final double window;
    private final Map<String, Migration> inFlight = new LinkedHashMap<>();

    /** Counts of what one window carried out. */
    record Done(int moves, int splits, int merges, int skipped, double movedBytes, List<NodeTruth> truth) {
    }

    private record Migration(String region, String from, String to, double remainingBytes) {
    }

    /** A stretch of the window during which a region served from a node. */
    private record Segment(SimRegion region, double from, double to) {
    }

    Executor(CostModel cost, double window) {
        this.cost = cost;
        this.window = window;
    }

    boolean idle() {
        return inFlight.isEmpty();
    }

    /** Runs one window: in-flight migrations first, then the plan's actions in order. */
    Done run(SimCluster c, Plan plan, Workload w) {
        Window win = new Window(c, w);
        for (Migration m : List.copyOf(inFlight.values())) {
            inFlight.remove(m.region());
            win.transfer(m.region(), m.from(), m.to(), m.remainingBytes(), 0);
        }
        int moves = 0;
        int splits = 0;
        int merges = 0;
        int skipped = 0;
        double moved = 0;
        for (Action a : plan == null ? List.<Action>of() : plan.actions()) {
            boolean ok;
            if (a instanceof MoveAction m) {
                double size = c.region(m.region()) == null ? 0 : c.region(m.region()).sizeBytes(w);
                ok = win.move(m);
                moves += ok ? 1 : 0;
                moved += ok ? size : 0;
            } else if (a instanceof SplitAction s) {
                ok = win.split(s);
                splits += ok ? 1 : 0;
            } else {
                ok = win.merge((MergeAction) a);
                merges += ok ? 1 : 0;
            }
            skipped += ok ? 0 : 1;
        }
        return new Done(moves, splits, merges, skipped, moved, win.truth());
    }

    /** The bookkeeping of one window. */
    private final class Window {
        private final SimCluster c;
        private final Workload w;
        private final Map<String, Double> ready = new HashMap<>();
        private final Map<String, Double> channelFree = new HashMap<>();
        private final Map<String, Double> openSince = new LinkedHashMap<>();
        private final List<Segment> closed = new ArrayList<>();
        private final Map<String, Double> migratedBytes = new HashMap<>();

        Window(SimCluster c, Workload w) {
            this.c = c;
            this.w = w;
            c.regions().forEach(r -> openSince.put(r.id(), 0.0));
        }

        private boolean usable(String id) {
            return c.region(id) != null && !inFlight.containsKey(id);
        }

        private double readyAt(String id) {
            return ready.getOrDefault(id, 0.0);
        }

        private void close(SimRegion r, double t) {
            closed.add(new Segment(r, openSince.remove(r.id()), t));
        }

        boolean move(MoveAction m) {
            SimRegion r = c.region(m.region());
            if (!usable(m.region()) || !r.node().equals(m.from()) || !c.hasNode(m.to()) || m.from().equals(m.to())) {
                return false;
            }
            transfer(r.id(), m.from(), m.to(), r.sizeBytes(w), readyAt(r.id()));
            return true;
        }

        void transfer(String id, String from, String to, double bytes, double notBefore) {
            double start = Math.max(notBefore, Math.max(channelFree.getOrDefault(from, 0.0), channelFree.getOrDefault(to, 0.0)));
            double end = start + bytes / MIGRATION_BYTES_PER_SEC;
            double sent = Math.max(0, Math.min(end, window) - Math.min(start, window)) * MIGRATION_BYTES_PER_SEC;
            channelFree.put(from, end);
            channelFree.put(to, end);
            migratedBytes.merge(from, sent, Double::sum);
            migratedBytes.merge(to, sent, Double::sum);
            if (end > window) {
                inFlight.put(id, new Migration(id, from, to, bytes - sent));
                return;
            }
            SimRegion r = c.region(id);
            close(r, end);
            SimRegion moved = r.onNode(to);
            c.put(moved);
            openSince.put(id, end);
            ready.put(id, end);
        }

        boolean split(SplitAction s) {
            SimRegion r = c.region(s.region());
            if (!usable(s.region()) || !r.range().strictlyContains(s.splitKey())
                    || c.region(s.left()) != null || c.region(s.right()) != null) {
                return false;
            }
            double t = Math.min(window, readyAt(r.id()) + SPLIT_DELAY);
            double x = KeySpace.position(s.splitKey());
            SimRegion left = new SimRegion(s.left(), r.range().left(s.splitKey()), r.x0(), x, r.node());
            SimRegion right = new SimRegion(s.right(), r.range().right(s.splitKey()), x, r.x1(), r.node());
            replace(List.of(r), List.of(left, right), t);
            return true;
        }

        boolean merge(MergeAction g) {
            List<SimRegion> parts = new ArrayList<>();
            for (String id : g.regions()) {
                SimRegion r = c.region(id);
                if (!usable(id) || !r.node().equals(g.node())
                        || (!parts.isEmpty() && !parts.get(parts.size() - 1).range().adjacentTo(r.range()))) {
                    return false;
                }
                parts.add(r);
            }
            if (parts.size() < 2 || (c.region(g.merged()) != null && !g.regions().contains(g.merged()))) {
                return false;
            }
            double t = MERGE_DELAY;
            for (SimRegion p : parts) {
                t = Math.max(t, readyAt(p.id()) + MERGE_DELAY);
            }
            SimRegion first = parts.get(0);
            SimRegion last = parts.get(parts.size() - 1);
            SimRegion merged = new SimRegion(g.merged(), new KeyRange(first.range().startKey(), last.range().endKey()),
                    first.x0(), last.x1(), g.node());
            replace(parts, List.of(merged), Math.min(window, t));
            return true;
        }

        private void replace(List<SimRegion> gone, List<SimRegion> added, double t) {
            gone.forEach(r -> close(r, t));
            c.replace(gone.stream().map(SimRegion::id).toList(), added);
            added.forEach(r -> {
                openSince.put(r.id(), t);
                ready.put(r.id(), t);
            });
        }

        List<NodeTruth> truth() {
            List<Placement> placements = new ArrayList<>();
            for (Segment s : closed) {
                add(placements, s.region(), s.from(), s.to());
            }
            openSince.forEach((id, since) -> add(placements, c.region(id), since, window));
            List<NodeTruth> base = cost.truth(c.nodes(), placements);
            List<NodeTruth> out = new ArrayList<>(base.size());
            for (NodeTruth n : base) {
                double rate = migratedBytes.getOrDefault(n.id(), 0.0) / window;
                out.add(n.plus(cost.migrationCpu(rate), rate, rate, 0));
            }
            return out;
        }

        private void add(List<Placement> placements, SimRegion r, double from, double to) {
            if (to > from) {
                placements.add(new Placement(r.traffic(w), r.node(), (to - from) / window));
            }
        }
    }
}
