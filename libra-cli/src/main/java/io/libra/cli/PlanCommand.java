package io.libra.cli;

import io.libra.core.format.PlanCodec;
import io.libra.core.PlanRequest;
import io.libra.core.Planner;
import io.libra.core.ReplayedRounds;
import io.libra.core.PlanResult;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Makes a libra.plan/v1 from a libra.snapshot/v1 (a dry run: nothing is executed).",
                "The table shows Max/Mean per dimension before and after, and each action with its reason."})
final class PlanCommand implements Callable<Integer> {
    enum Format { table, json }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "snapshot to plan from")
    Path snapshot;

    @Option(names = "--history", paramLabel = "FILE", description = {"an earlier window of the same cluster (repeat, oldest "
            + "first): the cost model is learnt from node totals across windows"})
    List<Path> history = new ArrayList<>();

    @Option(names = "--previous-plan", paramLabel = "PLAN.json", description = {"the plan made on the window before: its "
            + "predicted.nodes are checked against this snapshot, and a plan whose forecast missed by more than it "
            + "claimed to fix makes this one conservative; the nodes its estimate found to carry load of their own keep it "
            + "where these windows cannot show it again; without it, the plan made on the last --history window is "
            + "recalled by planning the windows again"})
    Path previousPlan;

    @Option(names = "--strategy", defaultValue = "libra", completionCandidates = Inputs.StrategyNames.class,
            description = "one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String strategy;

    @CommandLine.Mixin
    LambdaOption lambda;


    @Option(names = "--out", paramLabel = "PLAN.json", description = "write the plan JSON to this file")
    Path out;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        Inputs.Windows in = Inputs.windows(snapshot, history);
        Inputs.LoadedSnapshot s = in.now();
        List<ClusterSnapshot> windows = in.history();
        Planner planner = Inputs.planner(strategy, lambda.value);
        Optional<Plan> recalled = previousPlan == null ? ReplayedRounds.lastPlan(planner, windows, s.snapshot())
                : Optional.empty();
        Plan previous = previousPlan == null ? recalled.orElse(null) : Inputs.plan(previousPlan).plan();
        PlanResult result = planner.plan(new PlanRequest(s.snapshot(), windows, previous, false));
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
            recalled.ifPresent(p -> w.println(recalledLine(p)));
            w.print(table(result));
            if (out != null) {
                w.println("plan written to " + out);
            }
        }
        w.flush();
        return LibraCli.OK;
    }

    /** What the plan checked and held to, given windows but not the plan made on the last of them. */
    static String recalledLine(Plan p) {
        int n = p.actions().size();
        return "previous plan (no --previous-plan given): "
                + ReplayedRounds.inferred(p).orElse("recalled by planning the windows again") + ", "
                + p.status().name().toLowerCase(Locale.ROOT) + ", " + n + (n == 1 ? " action" : " actions");
    }

    private static String estimation(Estimation e) {
        if (e == null) {
            return "";
        }
        String fit = Double.isNaN(e.fitError()) ? "" : String.format(Locale.ROOT, ", held-out error %.1f%%", 100 * e.fitError());
        String last = Double.isNaN(e.lastPredictionError()) ? ""
                : String.format(Locale.ROOT, ", last forecast off by %.1f%%", 100 * e.lastPredictionError());
        return "estimation " + e.model() + " from " + e.windows() + (e.windows() == 1 ? " window" : " windows") + fit + last
                + "\n  " + e.detail();
    }

    static String table(PlanResult r) {
        int count = r.plan().actions().size();
        String detail = r.plan().detail();
        // the planner's detail is often just the action count, which the header prints anyway
        boolean saysMore = detail != null && !detail.isBlank() && !detail.equals(count + " actions");
        return "strategy " + r.plan().strategy() + ", status " + r.plan().status().name().toLowerCase(Locale.ROOT)
                + (saysMore ? " (" + detail + ")" : "")
                + ", " + count + (count == 1 ? " action" : " actions") + ", planned in " + Table.millis(r.planTime().toNanos() / 1e6)
                + "\n" + estimation(r.plan().estimation())
                + "\n\n" + PlanView.balance(r.before().balance(), r.predicted().balance()) + "\n" + PlanView.actions(r.plan());
    }
}
