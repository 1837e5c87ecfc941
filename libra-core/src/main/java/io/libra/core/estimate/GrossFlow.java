package io.libra.core.estimate;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The load a plan moves through each node, in and out, as a share of the node's target per
 * dimension (its gross flow). A forecast errs on each moved region's estimate, so a node's error
 * grows with what passed through it, not with its net change: two nodes that trade regions both
 * ways end where the plan says only as far as every traded estimate holds. A tally that a run adds
 * its moves to ({@link #add}); {@link #copy} before handing it on.
 */
public final class GrossFlow {
    private final double[][] through;

    private GrossFlow(int nodes) {
        this.through = new double[Dimension.values().length][nodes];
    }

    public static GrossFlow none(int nodes) {
        return new GrossFlow(nodes);
    }

    /** The gross flow of {@code actions} on {@code model}; a split piece's load is read from {@code after}. */
    public static GrossFlow of(LoadModel model, LoadModel after, List<Action> actions) {
        Map<String, RegionLoad> byId = new HashMap<>();
        after.regions().forEach(r -> byId.put(r.id(), r));
        model.regions().forEach(r -> byId.put(r.id(), r));
        GrossFlow f = new GrossFlow(model.nodeCount());
        for (Action a : actions) {
            if (a instanceof MoveAction m && byId.containsKey(m.region())) {
                RegionLoad r = byId.get(m.region());
                for (Dimension d : Dimension.values()) {
                    f.add(d, model.nodeIndex(m.from()), r.of(d), model.target(model.nodeIndex(m.from()), d));
                    f.add(d, model.nodeIndex(m.to()), r.of(d), model.target(model.nodeIndex(m.to()), d));
                }
            }
        }
        return f;
    }

    public GrossFlow copy() {
        GrossFlow f = new GrossFlow(through[0].length);
        for (int d = 0; d < through.length; d++) {
            System.arraycopy(through[d], 0, f.through[d], 0, through[d].length);
        }
        return f;
    }

    /** Adds {@code load} passing through node {@code j} (its target {@code target}) in {@code d}. */
    public void add(Dimension d, int j, double load, double target) {
        if (target > 0) {
            through[d.ordinal()][j] += Math.abs(load) / target;
        }
    }

    public double through(int j, Dimension d) {
        return through[d.ordinal()][j];
    }
}
