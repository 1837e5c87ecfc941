package io.libra.hbase.balancer;

import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.RegionPlan;

/**
 * What a core plan becomes in HBase this run: region moves for the master to execute, splits
 * to request at their planned keys, and the actions left for later runs with the reason.
 */
public record Translation(List<RegionPlan> moves, List<MoveAction> moveActions, List<Split> splits,
                          List<String> deferred) {
    /** A split of an existing region at the planned key (raw row bytes). */
    public record Split(RegionInfo region, byte[] splitKey, SplitAction action) {
    }

    /**
     * Keeps the plan's order; moves beyond {@code maxMoves} (0 = no cap), moves of regions
     * that a split of this run creates or replaces, and moves of system regions wait.
     */
    public static Translation of(List<Action> actions, HBaseSnapshot snap, int maxMoves) {
        List<RegionPlan> moves = new ArrayList<>();
        List<MoveAction> moveActions = new ArrayList<>();
        List<Split> splits = new ArrayList<>();
        List<String> deferred = new ArrayList<>();
        Set<String> splitting = new HashSet<>();
        for (Action a : actions) {
            if (a instanceof SplitAction) {
                SplitAction s = (SplitAction) a;
                RegionInfo ri = snap.regions().get(s.region());
                if (ri == null) {
                    deferred.add("split of " + s.region() + ": region created earlier in this plan, next run");
                } else {
                    splitting.add(s.region());
                    splits.add(new Split(ri, java.util.HexFormat.of().parseHex(s.splitKey()), s));
                }
            } else if (a instanceof MoveAction) {
                MoveAction m = (MoveAction) a;
                String why = moveBlocker(m, snap, splitting, maxMoves, moves.size());
                if (why != null) {
                    deferred.add("move of " + m.region() + ": " + why);
                } else {
                    moves.add(new RegionPlan(snap.regions().get(m.region()), snap.servers().get(m.from()),
                            snap.servers().get(m.to())));
                    moveActions.add(m);
                }
            } else {
                deferred.add(a.type() + ": not executed by the HBase balancer (use the normalizer)");
            }
        }
        return new Translation(moves, moveActions, splits, deferred);
    }

    private static String moveBlocker(MoveAction m, HBaseSnapshot snap, Set<String> splitting, int maxMoves,
                                      int planned) {
        RegionInfo ri = snap.regions().get(m.region());
        if (ri == null || splitting.contains(m.region())) {
            return "region is being split in this run, its move follows in a later run";
        }
        if (ri.getTable().isSystemTable()) {
            return "system table region, left where it is";
        }
        if (!snap.servers().containsKey(m.to()) || !snap.servers().containsKey(m.from()) || m.from().equals(m.to())) {
            return "unknown or identical source/destination server";
        }
        if (snap.estimatedNodes().contains(m.to())) {
            return "destination " + m.to() + " has no fresh report, never a destination";
        }
        if (maxMoves > 0 && planned >= maxMoves) {
            return "over hbase.libra.max.moves.per.run (" + maxMoves + "), next run";
        }
        return null;
    }
}
