package io.libra.cli;

import io.libra.cli.format.SnapshotCodec;
import io.libra.cli.sim.CostModel;
import io.libra.cli.sim.Scenario;
import io.libra.cli.sim.Simulator;
import io.libra.core.model.ClusterSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "snapshot", mixinStandardHelpOptions = true, description = "Works with snapshots.",
        subcommands = SnapshotCommand.Generate.class)
final class SnapshotCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: generate");
    }

    /** Completion candidates for --scenario. */
    static final class ScenarioNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return new ArrayList<>(Scenario.names()).iterator();
        }
    }

    static Scenario scenario(String name, Integer nodes, Integer regions, Integer rounds) {
        try {
            Scenario s = Scenario.byName(name);
            return s.resized(nodes == null ? s.nodes() : positive("--nodes", nodes),
                    regions == null ? s.regions() : positive("--regions", regions),
                    rounds == null ? s.rounds() : positive("--rounds", rounds));
        } catch (IllegalArgumentException e) {
            throw new BadInputException("libra: " + (e.getMessage().startsWith("--") ? "" : "--scenario: ") + e.getMessage());
        }
    }

    private static int positive(String option, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(option + ": must be >= 1, got " + v);
        }
        return v;
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Writes a synthetic libra.snapshot/v1 of a simulator scenario, so 'plan' can be tried without a cluster.")
    static final class Generate implements Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--scenario", defaultValue = "paper-mixgraph", completionCandidates = ScenarioNames.class,
                description = "one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        String scenario;

        @Option(names = "--seed", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--nodes", description = "nodes (default: the scenario's)")
        Integer nodes;

        @Option(names = "--regions", description = "regions (default: the scenario's)")
        Integer regions;

        @Option(names = "--buckets", defaultValue = "16", description = "key histogram buckets per region, 0 for none (default: ${DEFAULT-VALUE})")
        int buckets;

        @Option(names = "--out", required = true, paramLabel = "FILE")
        Path out;

        @Override
        public Integer call() {
            if (buckets < 0) {
                throw new BadInputException("libra: --buckets: must be >= 0, got " + buckets);
            }
            Scenario s = scenario(scenario, nodes, regions, null);
            ClusterSnapshot snap = new Simulator(CostModel.DEFAULT).snapshot(s, seed, buckets);
            Inputs.write(out, SnapshotCodec.write(snap));
            spec.commandLine().getOut().println("wrote " + out + ": scenario " + s.name() + ", " + snap.nodes().size()
                    + " nodes, " + snap.regions().size() + " regions, seed " + seed);
            spec.commandLine().getOut().flush();
            return LibraCli.OK;
        }
    }
}
