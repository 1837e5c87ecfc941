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

/** A small dual-imbalanced cluster: rs-1 carries the hot small-value regions, rs-2 the large-value ones. */
final class Skewed {
    private Skewed() {
    }

    static ClusterSnapshot snapshot() {
        int nodes = 4;
        int perNode = 8;
        List<Region> regions = new ArrayList<>();
        double[] cpu = new double[nodes];
        double[] disk = new double[nodes];
        for (int i = 0; i < nodes * perNode; i++) {
            int node = i % nodes;
            String start = i == 0 ? "" : String.format(Locale.ROOT, "%02x", i * 8);
            String end = i == nodes * perNode - 1 ? "" : String.format(Locale.ROOT, "%02x", (i + 1) * 8);
            RegionCounters c;
            if (node == 0 && i % 8 < 4) {
                c = new RegionCounters(2000, 500, 2000 * 100.0, 500 * 100.0);   // hot, tiny values: CPU
            } else if (node == 1 && i % 8 < 5) {
                c = new RegionCounters(20, 40, 20 * 200_000.0, 40 * 200_000.0); // large values: disk
            } else {
                c = new RegionCounters(100, 50, 100 * 1000.0, 50 * 1000.0);
            }
            cpu[node] += (c.readOps() + 1.63 * c.writeOps()) * 1e-4;
            disk[node] += c.readBytes() + 3 * c.writeBytes();
            regions.add(new Region("r-" + i, "usertable", new KeyRange(start, end), "rs-" + (node + 1),
                    64.0 * (1 << 20), c));
        }
        List<Node> ns = new ArrayList<>();
        for (int j = 0; j < nodes; j++) {
            ns.add(new Node("rs-" + (j + 1), 8, cpu[j], disk[j]));
        }
        return new ClusterSnapshot("hbase", Instant.parse("2026-11-22T08:00:00Z"), 60, ns, regions);
    }
}
