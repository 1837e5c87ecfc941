package io.libra.hbase.balancer;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.RegionPlan;

/**
 * What a core plan becomes in HBase this run: region moves for the master to execute, splits
 * to request at their planned keys, and the actions left for later runs with the reason.
 */
public record Translation(List<RegionPlan> moves, List<MoveAction> moveActions, List<Split> splits,
                          List<String> deferred) {
    /** Two regions whose load differs by at most this share carry the same benefit when moved. */
    static final double EQUAL_BENEFIT = 0.02;

    /** A split of an existing region at the planned key (raw row bytes). */
    public record Split(RegionInfo region, byte[] splitKey, SplitAction action) {
    }

    /** Caps per run: moves and splits beyond them wait for later runs (0 = no cap). */
    public record Limits(int maxMoves, int maxSplits) {
    }

    /** Bytes of store files the moves of this run take with them (they lose their locality). */
    public double bytesMoved(HBaseSnapshot snap) {
        Map<String, Double> size = new HashMap<>();
        snap.snapshot().regions().forEach(r -> size.put(r.id(), r.sizeBytes()));
        return moveActions.stream().mapToDouble(m -> size.getOrDefault(m.region(), 0.0)).sum();
    }

    /** This translation with {@code extra} moves (the region-count band's) appended. */
    Translation withMoves(List<MoveAction> extra, HBaseSnapshot snap) {
        List<RegionPlan> plans = new ArrayList<>(moves);
        List<MoveAction> actions = new ArrayList<>(moveActions);
        for (MoveAction m : extra) {
            plans.add(new RegionPlan(snap.regions().get(m.region()), snap.servers().get(m.from()), snap.servers().get(m.to())));
            actions.add(m);
        }
        return new Translation(plans, actions, splits, deferred);
    }

    /** Regions this run moves or splits. */
    Set<String> touched() {
        Set<String> t = new HashSet<>();
        moveActions.forEach(m -> t.add(m.region()));
        splits.forEach(s -> t.add(s.action().region()));
        return t;
    }

    /** Without HBase's placement rules beyond system tables (tests of pure translation). */
    public static Translation of(List<Action> actions, HBaseSnapshot snap, int maxMoves) {
        return of(actions, snap, new Limits(maxMoves, 0), new Placement(snap, s -> ""), null);
    }

    /**
     * Keeps the plan's order. Moves beyond the cap, moves of regions that a split of this run
     * creates or replaces, splits of regions this run moves, and whatever {@link Placement}
     * refuses wait. Among regions of equal
     * benefit on the same server a move takes the one with the fewest store-file bytes
     * ({@code before}, when given, holds the estimated loads).
     */
    static Translation of(List<Action> actions, HBaseSnapshot snap, Limits limits, Placement placement,
                          LoadModel before) {
        Builder b = new Builder(snap, limits, placement, before);
        for (Action a : actions) {
            if (a instanceof SplitAction) {
                b.split((SplitAction) a);
            } else if (a instanceof MoveAction) {
                b.move((MoveAction) a);
            } else {
                b.deferred.add(a.type() + ": not executed by the HBase balancer (use the normalizer)");
            }
        }
        return new Translation(b.moves, b.moveActions, b.splits, b.deferred);
    }

    private static final class Builder {
        final List<RegionPlan> moves = new ArrayList<>();
        final List<MoveAction> moveActions = new ArrayList<>();
        final List<Split> splits = new ArrayList<>();
        final List<String> deferred = new ArrayList<>();
        final Set<String> touched = new HashSet<>();
        final Set<String> splitting = new HashSet<>();
        final HBaseSnapshot snap;
        final Limits limits;
        final Placement placement;
        final Map<String, RegionLoad> loads = new HashMap<>();
        final Map<String, Double> sizes = new HashMap<>();
        final Function<String, List<String>> onNode;

        Builder(HBaseSnapshot snap, Limits limits, Placement placement, LoadModel before) {
            this.snap = snap;
            this.limits = limits;
            this.placement = placement;
            if (before != null) {
                before.regions().forEach(r -> loads.put(r.id(), r));
            }
            Map<String, List<String>> byNode = new HashMap<>();
            snap.snapshot().regions().forEach(r -> {
                sizes.put(r.id(), r.sizeBytes());
                byNode.computeIfAbsent(r.node(), k -> new ArrayList<>()).add(r.id());
            });
            this.onNode = n -> byNode.getOrDefault(n, List.of());
        }

        void split(SplitAction s) {
            RegionInfo ri = snap.regions().get(s.region());
            String why = ri == null ? "region created earlier in this plan, next run"
                    : touched.contains(s.region()) ? "region moves in this run, its split follows in a later run"
                    : placement.refuseSplit(s.region());
            if (why == null && limits.maxSplits() > 0 && splits.size() >= limits.maxSplits()) {
                why = "over hbase.libra.max.splits.per.run (" + limits.maxSplits() + "), next run";
            }
            // a region whose split waits keeps its place: what the plan moves after the split waits too
            splitting.add(s.region());
            if (why != null) {
                deferred.add("split of " + s.region() + ": " + why);
            } else {
                splits.add(new Split(ri, java.util.HexFormat.of().parseHex(s.splitKey()), s));
            }
        }

        void move(MoveAction m) {
            String why = blocker(m);
            if (why != null) {
                deferred.add("move of " + m.region() + ": " + why);
                return;
            }
            MoveAction chosen = lighterInBytes(m);
            touched.add(chosen.region());
            placement.moved(chosen.region(), chosen.to());
            moves.add(new RegionPlan(snap.regions().get(chosen.region()), snap.servers().get(chosen.from()),
                    snap.servers().get(chosen.to())));
            moveActions.add(chosen);
        }

        private String blocker(MoveAction m) {
            RegionInfo ri = snap.regions().get(m.region());
            if (ri == null || splitting.contains(m.region())) {
                return "region is being split in this run, its move follows in a later run";
            }
            if (touched.contains(m.region())) {
                return "region already moves in this run";
            }
            if (!snap.servers().containsKey(m.to()) || !snap.servers().containsKey(m.from()) || m.from().equals(m.to())) {
                return "unknown or identical source/destination server";
            }
            String refused = placement.refuseMove(m.region(), m.to());
            if (refused != null) {
                return refused;
            }
            if (limits.maxMoves() > 0 && moves.size() >= limits.maxMoves()) {
                return "over hbase.libra.max.moves.per.run (" + limits.maxMoves() + "), next run";
            }
            return null;
        }

        /** The region of equal benefit on the same server with the fewest store-file bytes. */
        private MoveAction lighterInBytes(MoveAction m) {
            RegionLoad planned = loads.get(m.region());
            if (planned == null || m.reason() == null) {
                return m;
            }
            Dimension d = m.reason().criticalDimension();
            MoveAction best = m;
            double bestSize = sizes.getOrDefault(m.region(), 0.0);
            for (String other : onNode.apply(m.from())) {
                RegionLoad o = loads.get(other);
                double size = sizes.getOrDefault(other, 0.0);
                if (o == null || size >= bestSize || touched.contains(other) || splitting.contains(other) || !m.from().equals(placement.nodeOf(other))
                        || !sameBenefit(planned, o, d) || placement.refuseMove(other, m.to()) != null) {
                    continue;
                }
                best = new MoveAction(other, m.from(), m.to(), size, m.reason().withNote(
                        "same load as " + m.region() + ", fewer store-file bytes"));
                bestSize = size;
            }
            return best;
        }

        private static boolean sameBenefit(RegionLoad planned, RegionLoad other, Dimension d) {
            double a = planned.of(d);
            return a > 0 && Math.abs(other.of(d) - a) <= EQUAL_BENEFIT * a
                    && other.of(d.other()) <= planned.of(d.other()) * (1 + EQUAL_BENEFIT);
        }
    }
}
