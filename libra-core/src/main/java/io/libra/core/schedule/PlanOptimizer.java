package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes redundant actions from a run (§IV-C, lazy scheduling): a region moved several times
 * becomes one move from where it was born to where it ends, a move and its reverse vanish, and
 * a split whose pieces all end where the region was split is dropped.
 */
public final class PlanOptimizer {
    private static final String MERGED = "hops merged ";
    private final Map<String, String> bornOn = new HashMap<>();
    private final Map<String, String> now = new HashMap<>();
    private final Map<String, Integer> firstMove = new HashMap<>();
    private final Map<String, Integer> lastMove = new HashMap<>();
    private final Map<String, SplitAction> splitOf = new HashMap<>();
    private final Map<String, String> splitNode = new HashMap<>();
    private final Set<String> neededSplits = new HashSet<>();

    private PlanOptimizer() {
    }

    public static List<Action> optimize(LoadModel model, List<Action> raw) {
        PlanOptimizer o = new PlanOptimizer();
        o.replay(model, raw);
        o.decideSplits(raw);
        return o.emit(raw);
    }

    private void replay(LoadModel model, List<Action> raw) {
        Set<String> touched = new HashSet<>();
        for (Action a : raw) {
            touched.add(a instanceof MoveAction m ? m.region() : ((SplitAction) a).region());
        }
        for (RegionLoad r : model.regions()) {
            if (touched.contains(r.id())) {
                bornOn.put(r.id(), r.node());
                now.put(r.id(), r.node());
            }
        }
        for (int i = 0; i < raw.size(); i++) {
            Action a = raw.get(i);
            if (a instanceof MoveAction m) {
                now.put(m.region(), m.to());
                firstMove.putIfAbsent(m.region(), i);
                lastMove.put(m.region(), i);
            } else if (a instanceof SplitAction s) {
                String node = now.get(s.region());
                splitOf.put(s.region(), s);
                splitNode.put(s.region(), node);
                for (String piece : List.of(s.left(), s.right())) {
                    bornOn.put(piece, node);
                    now.put(piece, node);
                }
            }
        }
    }

    /** Deepest splits first: a split is needed when a piece ends elsewhere or is itself split for a move. */
    private void decideSplits(List<Action> raw) {
        for (int i = raw.size() - 1; i >= 0; i--) {
            if (raw.get(i) instanceof SplitAction s) {
                String node = splitNode.get(s.region());
                for (String piece : List.of(s.left(), s.right())) {
                    if (neededSplits.contains(piece) || !endNode(piece).equals(node)) {
                        neededSplits.add(s.region());
                    }
                }
            }
        }
    }

    /** Where a region ends: its last node, or where it was when it was split. */
    private String endNode(String region) {
        return splitOf.containsKey(region) ? splitNode.get(region) : now.get(region);
    }

    /**
     * The reason of several hops made one move: the source as it was at the first hop, the
     * destination and the conditions as they were at the last, and a note that says so.
     */
    private static Reason merged(Reason first, Reason last, String from, String to) {
        String lastNote = last.note().startsWith(MERGED) ? last.note().substring(last.note().indexOf(") ") + 2) : last.note();
        return new Reason(first.criticalDimension(), last.passed(), first.source(), last.destination(),
                MERGED + from + " → " + to + " (" + from + " as at the first hop, conditions as at the last) "
                        + lastNote);
    }

    private List<Action> emit(List<Action> raw) {
        List<Action> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Action a = raw.get(i);
            if (a instanceof SplitAction s) {
                if (neededSplits.contains(s.region())) {
                    out.add(s);
                }
                continue;
            }
            MoveAction m = (MoveAction) a;
            String from = bornOn.get(m.region());
            String to = endNode(m.region());
            if (lastMove.get(m.region()) == i && !from.equals(to)) {
                MoveAction first = (MoveAction) raw.get(firstMove.get(m.region()));
                Reason why = first == m ? m.reason() : merged(first.reason(), m.reason(), from, to);
                out.add(new MoveAction(m.region(), from, to, m.sizeBytes(), why));
            }
        }
        return out;
    }
}
