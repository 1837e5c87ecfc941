package io.libra.cli;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Simulator;
import io.libra.core.model.ClusterSnapshot;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "snapshot", mixinStandardHelpOptions = true, description = "Works with snapshots: capture saves one from a running cluster, generate writes a synthetic one.",
        subcommands = {CaptureCommand.class, SnapshotCommand.Generate.class})
final class SnapshotCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: capture or generate");
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = {"Writes a synthetic libra.snapshot/v1 of a simulator scenario.",
                    "Its first window, with measurement noise, so 'plan' can be tried without a cluster."})
    static final class Generate implements Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        ScenarioOptions options;

        @Option(names = "--buckets", defaultValue = "16", description = "key histogram buckets per region, 0 for none (default: ${DEFAULT-VALUE})")
        int buckets;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "where to write the snapshot JSON")
        Path out;

        @Override
        public Integer call() {
            if (buckets < 0) {
                throw new BadInputException("libra: --buckets: must be >= 0, got " + buckets);
            }
            Scenario s = options.resolve(null, ScenarioOptions.GENERATE_LIMITS);
            ClusterSnapshot snap = new Simulator(CostModel.drawn(s, options.seed)).snapshot(s, options.seed, buckets);
            Inputs.write(out, SnapshotCodec.write(snap));
            spec.commandLine().getOut().println("wrote " + out + ": scenario " + s.name() + ", " + snap.nodes().size()
                    + " nodes, " + snap.regions().size() + " regions, seed " + options.seed);
            spec.commandLine().getOut().flush();
            return LibraCli.OK;
        }
    }
}
