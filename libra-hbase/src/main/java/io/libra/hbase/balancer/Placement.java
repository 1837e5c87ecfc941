package io.libra.hbase.balancer;

import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.MoveAction;
import io.libra.core.schedule.PlacementRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;

/**
 * What HBase lets the balancer do with each region, checked move by move in plan order:
 * system-table regions ({@code hbase:meta}, {@code hbase:namespace}, …) are pinned (their load
 * counts as their server's base load, and they are never moved or split); a server without a
 * fresh report is never a destination, and no region is split there; a split HBase refused lately
 * is not planned; a region's replicas never share a server, nor, when racks are known, does a move
 * lower the number of racks they cover.
 */
final class Placement implements PlacementRule {
    private final HBaseSnapshot snap;
    private final Function<String, String> rawRackOf;
    private final Map<String, RegionInfo> regions;
    private final Set<String> unreported;
    private final Set<String> held = new HashSet<>();
    private final Function<String, String> rackOf;
    private final boolean racksKnown;
    private final Map<String, String> nodeOf = new HashMap<>();
    private final Map<String, List<String>> replicasOf = new HashMap<>();
    private Function<String, Optional<String>> splitRefused = r -> Optional.empty();
    /** Region → the server a move taken back had sent it to: not a destination again (by-table runs). */
    private final Map<String, String> takenBackTo = new HashMap<>();
    /** Splits the scheduler wanted and {@link #splitsRefused} withheld, with why; shared with the scheduler's copies. */
    private final Map<String, String> withheld;

    Placement(HBaseSnapshot snap, Function<String, String> rackOf) {
        this(snap, rackOf, new java.util.LinkedHashMap<>());
    }

    private Placement(HBaseSnapshot snap, Function<String, String> rackOf, Map<String, String> withheld) {
        this.snap = snap;
        this.withheld = withheld;
        this.rawRackOf = rackOf;
        this.regions = snap.regions();
        this.unreported = new HashSet<>(snap.estimatedNodes());
        Map<String, String> racks = new HashMap<>();
        this.rackOf = server -> racks.computeIfAbsent(server, rackOf);
        this.racksKnown = snap.servers().keySet().stream().map(rackOf).distinct().count() > 1;
        snap.snapshot().regions().forEach(r -> nodeOf.put(r.id(), r.node()));
        regions.forEach((id, ri) -> replicasOf.computeIfAbsent(primary(ri), k -> new ArrayList<>()).add(id));
    }

    static boolean pinned(RegionInfo ri) {
        return ri.getTable().isSystemTable();
    }

    private static String primary(RegionInfo ri) {
        return RegionReplicaUtil.getRegionInfoForDefaultReplica(ri).getEncodedName();
    }

    /**
     * The same rules for the core scheduler to ask while it plans, so a refused destination is
     * replaced by the next-best one in the same run. A copy: it follows the moves the scheduler
     * commits, while this one follows the moves {@link Translation} returns from the final plan.
     */
    PlacementRule forScheduler() {
        Placement copy = new Placement(snap, rawRackOf, withheld);
        copy.held.addAll(held);
        copy.takenBackTo.putAll(takenBackTo);
        copy.splitRefused = splitRefused;
        return copy;
    }

    /**
     * Moves taken back because they left Δ worse: none of those regions is sent where it had been
     * sent again. The whole run's check holds back a plan that repeats them; a table's plan, whose
     * forecast is the table's and not the servers', is kept from them move by move instead.
     */
    void takenBack(List<MoveAction> moves) {
        moves.forEach(m -> takenBackTo.put(m.region(), m.to()));
    }

    /** Splits HBase refused lately: why each region's split is not planned now, or empty. */
    void splitsRefused(Function<String, Optional<String>> why) {
        this.splitRefused = why;
    }

    /** Servers in flux this run (see {@link Fluctuation}): their regions stay, none is sent to them. */
    void hold(Set<String> servers) {
        held.addAll(servers);
    }

    /**
     * The model the planner works on: pinned regions folded into their server's base load, and
     * held servers left out with their regions (a server in flux cannot be judged this window;
     * kept in, its burst would set the cluster's Δ and no plan could lower it).
     */
    LoadModel pin(LoadModel model) {
        List<Node> nodes = new ArrayList<>();
        List<Double> baseCpu = new ArrayList<>();
        List<Double> baseDisk = new ArrayList<>();
        Map<String, Integer> at = new HashMap<>();
        for (int j = 0; j < model.nodeCount(); j++) {
            Node n = model.nodes().get(j);
            if (!held.contains(n.id())) {
                at.put(n.id(), nodes.size());
                nodes.add(n);
                baseCpu.add(model.base(j, Dimension.CPU));
                baseDisk.add(model.base(j, Dimension.DISK));
            }
        }
        List<RegionLoad> movable = new ArrayList<>(model.regions().size());
        for (RegionLoad r : model.regions()) {
            Integer j = at.get(r.node());
            RegionInfo ri = regions.get(r.id());
            if (j == null) {
                continue;
            }
            if (ri != null && pinned(ri)) {
                baseCpu.set(j, baseCpu.get(j) + r.cpu());
                baseDisk.set(j, baseDisk.get(j) + r.disk());
            } else {
                movable.add(r);
            }
        }
        if (movable.size() == model.regions().size()) {
            return model;
        }
        return model.restricted(nodes, movable, baseCpu.stream().mapToDouble(Double::doubleValue).toArray(),
                baseDisk.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Why the region may not move to {@code to} now, or null; an accepted move must be {@link #moved reported}. */
    @Override
    public String refuseMove(String region, String to) {
        RegionInfo ri = regions.get(region);
        if (ri == null) {
            return null;
        }
        if (pinned(ri)) {
            return "system table region, pinned where it is";
        }
        if (unreported.contains(to)) {
            return "destination " + to + " has no fresh report, never a destination";
        }
        if (held.contains(to) || held.contains(nodeOf.get(region))) {
            return "its server's load is in flux this window (fluctuation guard)";
        }
        if (to.equals(takenBackTo.get(region))) {
            return "its move to " + to + " left Δ worse and was taken back";
        }
        List<String> siblings = replicasOf.getOrDefault(primary(ri), List.of());
        for (String other : siblings) {
            if (!other.equals(region) && to.equals(nodeOf.get(other))) {
                return "a replica of the same region is on " + to;
            }
        }
        if (racksKnown && siblings.size() > 1 && racks(siblings, region, to) < racks(siblings, region, nodeOf.get(region))) {
            return "its replicas would cover fewer racks";
        }
        return null;
    }

    /** Why the region may not be split, or null. */
    @Override
    public String refuseSplit(String region) {
        RegionInfo ri = regions.get(region);
        if (ri == null) {
            return null;
        }
        if (pinned(ri)) {
            return "system table region, never split";
        }
        if (!RegionReplicaUtil.isDefaultReplica(ri)) {
            return "a secondary replica, it follows its primary's splits";
        }
        String server = nodeOf.get(region);
        if (unreported.contains(server)) {
            // no fresh key samples to cut at, and the region's load there is modelled, not measured
            return "its server " + server + " has no fresh report, never split there";
        }
        String why = splitRefused.apply(region).orElse(null);
        if (why != null) {
            withheld.putIfAbsent(region, why);
        }
        return why;
    }

    /** The splits withheld so far because HBase refused them lately or would strand clients (region → why). */
    Map<String, String> withheldSplits() {
        return java.util.Collections.unmodifiableMap(withheld);
    }

    /** Servers no region may be moved to. */
    Set<String> noDestinations() {
        Set<String> no = new HashSet<>(unreported);
        no.addAll(held);
        return no;
    }

    @Override
    public void moved(String region, String to) {
        nodeOf.put(region, to);
    }

    /** A copy at the window's layout: {@link #forScheduler} starts from the snapshot, not from the moves seen. */
    @Override
    public PlacementRule fresh() {
        return forScheduler();
    }

    String nodeOf(String region) {
        return nodeOf.get(region);
    }

    private int racks(List<String> siblings, String region, String nodeOfRegion) {
        Set<String> racks = new HashSet<>();
        for (String s : siblings) {
            String node = s.equals(region) ? nodeOfRegion : nodeOf.get(s);
            if (node != null) {
                racks.add(rackOf.apply(node));
            }
        }
        return racks.size();
    }
}
