package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;
import io.libra.core.plan.Action;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Low-priority merging of small cold neighbours (§IV-C): splitting leaves many regions behind,
 * and each costs the store memory and heartbeats. Runs of adjacent regions of one table on one
 * node whose combined load stays below {@code mergeColdBelow} in both dimensions are merged,
 * a few per plan, and never regions the plan itself touches.
 */
final class ColdMerges {
    static final int MAX_MERGES_PER_PLAN = 16;

    private ColdMerges() {
    }

    static List<Action> propose(LoadModel model, List<Action> plan, PlanningContext context) {
        double limit = context.config().mergeColdBelow();
        if (limit <= 0) {
            return List.of();
        }
        Set<String> touched = touched(plan);
        Map<String, List<RegionLoad>> groups = new TreeMap<>();
        for (RegionLoad r : model.regions()) {
            if (!touched.contains(r.id())) {
                groups.computeIfAbsent(r.node() + "\u0000" + r.region().table(), k -> new ArrayList<>()).add(r);
            }
        }
        List<Action> merges = new ArrayList<>();
        for (List<RegionLoad> group : groups.values()) {
            group.sort(Comparator.comparing(r -> r.region().range().startKey()));
            mergeRuns(model, group, limit, merges);
            if (merges.size() >= MAX_MERGES_PER_PLAN) {
                return merges.subList(0, MAX_MERGES_PER_PLAN);
            }
        }
        return merges;
    }

    private static void mergeRuns(LoadModel model, List<RegionLoad> sorted, double limit, List<Action> out) {
        int node = model.nodeIndex(sorted.get(0).node());
        List<RegionLoad> run = new ArrayList<>();
        double cpu = 0;
        double disk = 0;
        for (RegionLoad r : sorted) {
            double c = share(model, node, Dimension.CPU, r.cpu());
            double d = share(model, node, Dimension.DISK, r.disk());
            boolean extends_ = !run.isEmpty() && run.get(run.size() - 1).region().range().adjacentTo(r.region().range());
            if (extends_ && cpu + c < limit && disk + d < limit) {
                run.add(r);
                cpu += c;
                disk += d;
                continue;
            }
            emit(model, node, run, out);
            run = new ArrayList<>(List.of(r));
            cpu = c;
            disk = d;
            if (c >= limit || d >= limit) {
                run.clear();
            }
        }
        emit(model, node, run, out);
    }

    private static double share(LoadModel model, int node, Dimension d, double load) {
        return Normalisation.share(load, model.target(node, d));
    }

    private static void emit(LoadModel model, int node, List<RegionLoad> run, List<Action> out) {
        if (run.size() < 2) {
            return;
        }
        List<String> ids = run.stream().map(RegionLoad::id).toList();
        double dev = model.deviation(node);
        Reason why = new Reason(Dimension.CPU, List.of(Constraint.COLD_NEIGHBOURS),
                new NodeDeviation(run.get(0).node(), dev, dev), null,
                run.size() + " adjacent cold regions merged to cut per-region overhead");
        out.add(new MergeAction(ids, ids.get(0) + "+" + (ids.size() - 1), run.get(0).node(), why));
    }

    private static Set<String> touched(List<Action> plan) {
        Set<String> ids = new HashSet<>();
        for (Action a : plan) {
            if (a instanceof MoveAction m) {
                ids.add(m.region());
            } else if (a instanceof SplitAction s) {
                ids.add(s.region());
            }
        }
        return ids;
    }
}
