package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.HashMap;
import java.util.Map;

/**
 * How far the workload itself moved between two windows, free of any cost model: each node's
 * request rate (and payload byte rate) now, against what the same regions carried in the earlier
 * window. Regions are matched by id and key range. Per table, regions that are new (daughters of
 * a split, a re-cut token range, a ring's region whose range a token move changed) stand for the
 * regions gone, sharing their earlier load in proportion to their own, so a split or a move is no
 * change, while a table turning hot is.
 *
 * <p>A forecast that missed by about as much as the workload moved says nothing about the cost
 * model: the regions' own counters explain the miss (see {@link PredictionCheck}).
 *
 * @param ops   Σ over nodes |requests/s now − then| / Σ over nodes max(now, then), in [0, 1]; a
 *              table gone with no region of it left counts wholly as change
 * @param bytes the same for payload bytes/s
 */
public record WorkloadShift(double ops, double bytes) {
    public static final WorkloadShift NONE = new WorkloadShift(0, 0);

    /** The larger of the two shares. */
    public double share() {
        return Math.max(ops, bytes);
    }

    public static WorkloadShift between(ClusterSnapshot before, ClusterSnapshot now) {
        Map<String, Region> was = new HashMap<>(before.regions().size() * 2);
        before.regions().forEach(r -> was.put(r.id(), r));
        Tally tally = new Tally();
        for (Region r : now.regions()) {
            Region then = was.get(r.id());
            // a ring's region keeps its id when a token move re-cuts its range: that is a new region
            if (then != null && then.range().equals(r.range())) {
                was.remove(r.id());
                tally.now(r, then);
            } else {
                tally.now(r, null);
            }
        }
        was.values().forEach(tally::gone);
        return tally.result();
    }

    private static double[] rates(RegionCounters c) {
        return new double[] {c.ops(), c.readBytes() + c.writeBytes()};
    }

    /** Per node: the rates now and then; per table: the rates of regions new and gone. */
    private static final class Tally {
        private final Map<String, double[]> nowByNode = new HashMap<>();
        private final Map<String, double[]> thenByNode = new HashMap<>();
        private final Map<String, Map<String, double[]>> newByTable = new HashMap<>();
        private final Map<String, double[]> goneByTable = new HashMap<>();

        void now(Region r, Region then) {
            add(nowByNode.computeIfAbsent(r.node(), k -> new double[2]), rates(r.counters()));
            double[] was = thenByNode.computeIfAbsent(r.node(), k -> new double[2]);
            if (then != null) {
                add(was, rates(then.counters()));
            } else {
                add(newByTable.computeIfAbsent(r.table(), k -> new HashMap<>())
                        .computeIfAbsent(r.node(), k -> new double[2]), rates(r.counters()));
            }
        }

        void gone(Region r) {
            add(goneByTable.computeIfAbsent(r.table(), k -> new double[2]), rates(r.counters()));
        }

        WorkloadShift result() {
            return new WorkloadShift(share(0), share(1));
        }

        private double share(int k) {
            double unplaced = spreadGone(k);
            double diff = unplaced;
            double total = 0;
            for (Map.Entry<String, double[]> e : nowByNode.entrySet()) {
                double then = thenByNode.get(e.getKey())[k];
                diff += Math.abs(e.getValue()[k] - then);
                total += Math.max(e.getValue()[k], then);
            }
            return total + unplaced > 0 ? diff / (total + unplaced) : 0;
        }

        /** Adds each table's gone load to the nodes of its new regions; what no new region takes is returned. */
        private double spreadGone(int k) {
            double unplaced = 0;
            for (Map.Entry<String, double[]> e : goneByTable.entrySet()) {
                double gone = e.getValue()[k];
                Map<String, double[]> fresh = newByTable.getOrDefault(e.getKey(), Map.of());
                double sum = fresh.values().stream().mapToDouble(v -> v[k]).sum();
                if (sum <= 0) {
                    unplaced += gone;
                    continue;
                }
                fresh.forEach((node, v) -> thenByNode.get(node)[k] += gone * v[k] / sum);
            }
            return unplaced;
        }

        private static void add(double[] into, double[] v) {
            into[0] += v[0];
            into[1] += v[1];
        }
    }
}
