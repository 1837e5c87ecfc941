package io.libra.hbase.balancer;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A small dual-imbalanced cluster: rs-1 carries the hot small-value regions, rs-2 the large-value ones. */
final class Skewed {
    static final Instant AT = Instant.parse("2026-11-22T08:00:00Z");
    private static final int NODES = 4;

    private Skewed() {
    }

    static ClusterSnapshot snapshot() {
        int perNode = 8;
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < NODES * perNode; i++) {
            int node = i % NODES;
            String start = i == 0 ? "" : String.format(Locale.ROOT, "%02x", i * 8);
            String end = i == NODES * perNode - 1 ? "" : String.format(Locale.ROOT, "%02x", (i + 1) * 8);
            RegionCounters c;
            if (node == 0 && i % 8 < 4) {
                c = new RegionCounters(2000, 500, 2000 * 100.0, 500 * 100.0);   // hot, tiny values: CPU
            } else if (node == 1 && i % 8 < 5) {
                c = new RegionCounters(20, 40, 20 * 200_000.0, 40 * 200_000.0); // large values: disk
            } else {
                c = new RegionCounters(100, 50, 100 * 1000.0, 50 * 1000.0);
            }
            regions.add(new Region("r-" + i, "usertable", new KeyRange(start, end), "rs-" + (node + 1),
                    64.0 * (1 << 20), c));
        }
        return measured(regions, AT);
    }

    /** Eight equal regions per server, but two on rs-1 are three times as busy: rs-1 at 12 of a mean 9 (Δ 0.33). */
    static ClusterSnapshot mild() {
        List<Region> regions = new ArrayList<>();
        for (Region r : snapshot().regions()) {
            int i = Integer.parseInt(r.id().substring(2));
            double by = i == 0 || i == 4 ? 3 : 1;
            regions.add(new Region(r.id(), r.table(), r.range(), r.node(), r.sizeBytes(),
                    new RegionCounters(100 * by, 50 * by, 100 * 1000.0 * by, 50 * 1000.0 * by)));
        }
        return measured(regions, AT);
    }

    /** The same cluster measured at {@code at} after the regions in {@code moved} (id → node) moved. */
    static ClusterSnapshot after(ClusterSnapshot s, Map<String, String> moved, Instant at) {
        List<Region> regions = new ArrayList<>();
        for (Region r : s.regions()) {
            regions.add(moved.containsKey(r.id()) ? r.onNode(moved.get(r.id())) : r);
        }
        return measured(regions, at);
    }

    /** Node totals as the regions on them cost: CPU by the paper's mapping (c = 1.63), disk read + 3× write bytes. */
    private static ClusterSnapshot measured(List<Region> regions, Instant at) {
        double[] cpu = new double[NODES];
        double[] disk = new double[NODES];
        for (Region r : regions) {
            int node = Integer.parseInt(r.node().substring(3)) - 1;
            RegionCounters c = r.counters();
            cpu[node] += (c.readOps() + 1.63 * c.writeOps()) * 1e-4;
            disk[node] += c.readBytes() + 3 * c.writeBytes();
        }
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < NODES; j++) {
            ns.add(new Node("rs-" + (j + 1), 8, cpu[j], disk[j]));
        }
        return new ClusterSnapshot("hbase", at, 60, ns, regions);
    }
}
