package io.libra.cli;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Simulator;
import io.libra.core.PlanResult;
import io.libra.core.model.ClusterSnapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measures snapshot parsing time, planning time and peak heap at growing cluster sizes.",
                "Each size is a synthetic paper-mixgraph snapshot, for users without JMH. One run per size, after a warm-up."})
final class BenchCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--sizes", defaultValue = "8x256,64x4096,256x25600,1000x100000", split = ",", paramLabel = "NODESxREGIONS",
            description = "sizes to run (default: ${DEFAULT-VALUE})")
    List<String> sizes;

    @Option(names = "--strategy", defaultValue = "libra", completionCandidates = Inputs.StrategyNames.class,
            description = "strategy to plan with, one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String strategy;

    @Option(names = "--buckets", defaultValue = "4", description = "key histogram buckets per region (default: ${DEFAULT-VALUE})")
    int buckets;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the synthetic snapshots (default: ${DEFAULT-VALUE})")
    long seed;

    record Size(int nodes, int regions) {
    }

    @Override
    public Integer call() {
        List<Size> parsed = new ArrayList<>();
        for (String s : sizes) {
            parsed.add(parse(s));
        }
        Inputs.planner(strategy, 0.05);
        warmUp();
        Table t = new Table("nodes", "regions", "snapshot JSON", "parse", "plan", "actions", "peak heap");
        for (Size s : parsed) {
            ClusterSnapshot snap = new Simulator(CostModel.DEFAULT)
                    .snapshot(Scenario.byName("paper-mixgraph").resized(s.nodes(), s.regions(), 1), seed, buckets);
            byte[] json = SnapshotCodec.write(snap).getBytes(StandardCharsets.UTF_8);
            snap = null;
            System.gc();
            resetPeaks();
            long t0 = System.nanoTime();
            ClusterSnapshot read = SnapshotCodec.read("bench.json", json);
            long t1 = System.nanoTime();
            PlanResult r = Inputs.planner(strategy, 0.05).plan(read);
            long t2 = System.nanoTime();
            t.row(s.nodes(), s.regions(), Table.bytes(json.length), Table.millis((t1 - t0) / 1e6), Table.millis((t2 - t1) / 1e6),
                    r.plan().actions().size(), Table.bytes(peakHeap()));
        }
        spec.commandLine().getOut().print(t.render());
        spec.commandLine().getOut().println("(strategy " + strategy + ", Java " + System.getProperty("java.version") + ", "
                + Runtime.getRuntime().availableProcessors() + " cpus, max heap " + Table.bytes(Runtime.getRuntime().maxMemory()) + ")");
        spec.commandLine().getOut().flush();
        return LibraCli.OK;
    }

    static Size parse(String s) {
        String[] p = s.trim().split("x");
        try {
            if (p.length == 2) {
                int n = Integer.parseInt(p[0]);
                int r = Integer.parseInt(p[1]);
                if (n >= 1 && r >= n && r <= ScenarioOptions.GENERATE_LIMITS.maxRegions()
                        && r <= (long) ScenarioOptions.GENERATE_LIMITS.maxRegionsPerNode() * n) {
                    return new Size(n, r);
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadInputException("libra: --sizes: expected NODESxREGIONS like 8x256, with 1 to "
                + ScenarioOptions.GENERATE_LIMITS.maxRegionsPerNode() + " regions per node and at most "
                + ScenarioOptions.GENERATE_LIMITS.maxRegions() + " regions, got '" + s + "'");
    }

    private void warmUp() {
        ClusterSnapshot snap = new Simulator(CostModel.DEFAULT)
                .snapshot(Scenario.byName("paper-mixgraph").resized(8, 256, 1), seed, buckets);
        for (int i = 0; i < 5; i++) {
            SnapshotCodec.read("warm-up.json", SnapshotCodec.write(snap).getBytes(StandardCharsets.UTF_8));
            Inputs.planner(strategy, 0.05).plan(snap);
        }
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
