package io.libra.cli;

import io.libra.core.format.PlanCodec;
import io.libra.core.PlanResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Reads a libra.snapshot/v1 and makes a libra.plan/v1 (a dry run: nothing is executed).",
                "The table shows Max/Mean per dimension before and after and each action with its reason."})
final class PlanCommand implements Callable<Integer> {
    enum Format { table, json }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "snapshot to plan from")
    Path snapshot;

    @Option(names = "--strategy", defaultValue = "libra", completionCandidates = Inputs.StrategyNames.class,
            description = "one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String strategy;

    @Option(names = "--lambda", defaultValue = "0.05", description = "λ, the tolerated deviation from the mean (default: ${DEFAULT-VALUE})")
    double lambda;

    @Option(names = "--seed", defaultValue = "42", description = "seed for tie-breaking (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", paramLabel = "PLAN.json", description = "write the plan JSON to this file")
    Path out;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        Inputs.LoadedSnapshot s = Inputs.snapshot(snapshot);
        PlanResult result = Inputs.planner(strategy, lambda, seed).plan(s.snapshot());
        String json = PlanCodec.write(result.plan(), s.sha256());
        PrintWriter w = spec.commandLine().getOut();
        if (out != null) {
            Inputs.write(out, json);
        }
        if (format == Format.json) {
            if (out == null) {
                w.print(json);
            }
        } else {
            w.print(table(result));
            if (out != null) {
                w.println("plan written to " + out);
            }
        }
        w.flush();
        return LibraCli.OK;
    }

    static String table(PlanResult r) {
        return "strategy " + r.plan().strategy() + ", status " + r.plan().status().name().toLowerCase(java.util.Locale.ROOT)
                + (r.plan().detail() == null || r.plan().detail().isBlank() ? "" : " (" + r.plan().detail() + ")")
                + ", " + r.plan().actions().size() + " actions, planned in " + Table.millis(r.planTime().toNanos() / 1e6)
                + "\n\n" + PlanView.balance(r.before().balance(), r.predicted().balance()) + "\n" + PlanView.actions(r.plan());
    }
}
