package io.libra.core.apply;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionCosts;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.SplitAction;
import io.libra.core.split.RegionSplitter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a plan to a load model in memory, giving the predicted state. Checks every action
 * against the state it meets, so a plan made for another snapshot is refused whole.
 */
public final class PlanApplier {
    private final RegionCosts mapping;

    public PlanApplier(EstimationConfig estimation) {
        this.mapping = RegionCosts.mapping(estimation);
    }

    public LoadModel apply(LoadModel model, Plan plan) {
        return apply(model, plan.actions());
    }

    /** The state after the actions, checked one by one as {@link #apply(LoadModel, Plan)} does. */
    public LoadModel apply(LoadModel model, List<? extends Action> actions) {
        Map<String, RegionLoad> regions = new LinkedHashMap<>();
        RegionSplitter splitter = new RegionSplitter(model.costs(mapping));
        for (RegionLoad r : model.regions()) {
            regions.put(r.id(), r);
        }
        for (int i = 0; i < actions.size(); i++) {
            String at = "actions[" + i + "]";
            Action a = actions.get(i);
            if (a instanceof MoveAction m) {
                move(model, regions, m, at);
            } else if (a instanceof SplitAction s) {
                split(regions, s, at, splitter);
            } else if (a instanceof MoveTokenAction) {
                throw new InvalidPlanException(at + ".type", "moveToken actions move a ring's token boundaries, not "
                        + "regions; the libra-cassandra sidecar plans and checks them against its ring");
            } else {
                merge(regions, (MergeAction) a, at);
            }
        }
        return model.withRegions(new ArrayList<>(regions.values()));
    }

    private static RegionLoad existing(Map<String, RegionLoad> regions, String id, String path) {
        RegionLoad r = regions.get(id);
        if (r == null) {
            throw new InvalidPlanException(path, "unknown region " + id);
        }
        return r;
    }

    private static void move(LoadModel model, Map<String, RegionLoad> regions, MoveAction m, String at) {
        RegionLoad r = existing(regions, m.region(), at + ".region");
        if (!r.node().equals(m.from())) {
            throw new InvalidPlanException(at + ".from", "region " + m.region() + " is on " + r.node() + ", not " + m.from());
        }
        if (!model.hasNode(m.to())) {
            throw new InvalidPlanException(at + ".to", "unknown node " + m.to());
        }
        int to = model.nodeIndex(m.to());
        regions.put(r.id(), new RegionLoad(r.region().onNode(m.to()), model.cpuOn(r, to), model.diskOn(r, to)));
    }

    private static void split(Map<String, RegionLoad> regions, SplitAction s, String at, RegionSplitter splitter) {
        RegionLoad r = existing(regions, s.region(), at + ".region");
        if (!r.region().range().strictlyContains(s.splitKey())) {
            throw new InvalidPlanException(at + ".splitKey", "key " + s.splitKey() + " is not inside region "
                    + s.region() + " [" + r.region().range().startKey() + ", " + r.region().range().endKey() + ")");
        }
        for (String id : List.of(s.left(), s.right())) {
            if (regions.containsKey(id)) {
                throw new InvalidPlanException(at, "region id " + id + " already exists");
            }
        }
        RegionSplitter.Halves h = splitter.split(r, s.splitKey());
        regions.remove(r.id());
        regions.put(s.left(), rename(h.left(), s.left()));
        regions.put(s.right(), rename(h.right(), s.right()));
    }

    private static RegionLoad rename(RegionLoad r, String id) {
        Region g = r.region();
        return new RegionLoad(new Region(id, g.table(), g.range(), g.node(), g.sizeBytes(), g.counters(),
                g.histogram(), g.rangeId()), r.cpu(), r.disk());
    }

    private static void merge(Map<String, RegionLoad> regions, MergeAction g, String at) {
        List<RegionLoad> parts = new ArrayList<>();
        for (int k = 0; k < g.regions().size(); k++) {
            parts.add(existing(regions, g.regions().get(k), at + ".regions[" + k + "]"));
        }
        RegionLoad first = parts.get(0);
        for (int k = 1; k < parts.size(); k++) {
            RegionLoad p = parts.get(k);
            if (!p.node().equals(first.node()) || !parts.get(k - 1).region().range().adjacentTo(p.region().range())
                    || !p.region().table().equals(first.region().table())) {
                throw new InvalidPlanException(at + ".regions[" + k + "]", "not adjacent on the same node and table");
            }
        }
        RegionLoad merged = RegionMerger.merge(parts, g.merged());
        parts.forEach(p -> regions.remove(p.id()));
        regions.put(merged.id(), merged);
    }
}
