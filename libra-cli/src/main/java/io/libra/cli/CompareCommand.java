package io.libra.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.PlanResult;
import io.libra.core.plan.Balance;
import io.libra.core.schedule.Strategies;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Plans with every strategy on the same snapshot and prints one row per strategy.",
                "Each row has the predicted Max/Mean CPU and disk, imbalance degree, moves, splits, bytes moved and plan time."})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "snapshot to plan from")
    Path snapshot;

    @CommandLine.Mixin
    LambdaOption lambda;


    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
    PlanCommand.Format format;

    @Override
    public Integer call() {
        Inputs.LoadedSnapshot s = Inputs.snapshot(snapshot);
        Map<String, PlanResult> results = new LinkedHashMap<>();
        for (String name : Strategies.names()) {
            results.put(name, Inputs.planner(name, lambda.value).plan(s.snapshot()));
        }
        PrintWriter w = spec.commandLine().getOut();
        w.print(format == PlanCommand.Format.json ? json(results) : table(results));
        w.flush();
        return LibraCli.OK;
    }

    private static String table(Map<String, PlanResult> results) {
        Balance now = results.values().iterator().next().before().balance();
        Table t = new Table("strategy", "cpu Max/Mean", "disk Max/Mean", "Δ", "moves", "splits", "merges", "moved", "plan time", "status");
        t.row("(now)", Table.f3(now.cpuMaxOverMean()), Table.f3(now.diskMaxOverMean()), Table.f3(now.imbalanceDegree()),
                "", "", "", "", "", "");
        results.forEach((name, r) -> {
            Balance b = r.predicted().balance();
            t.row(name, Table.f3(b.cpuMaxOverMean()), Table.f3(b.diskMaxOverMean()), Table.f3(b.imbalanceDegree()),
                    r.plan().count("move"), r.plan().count("split"), r.plan().count("merge"), Table.bytes(r.plan().movedBytes()),
                    Table.millis(r.planTime().toNanos() / 1e6), r.plan().status().name().toLowerCase(java.util.Locale.ROOT));
        });
        return t.render() + "(predicted by the planner's own estimate; run 'libra simulate' for measured outcomes)\n";
    }

    private static String json(Map<String, PlanResult> results) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        Balance now = results.values().iterator().next().before().balance();
        balance(root.putObject("before"), now);
        ObjectNode strategies = root.putObject("strategies");
        results.forEach((name, r) -> {
            ObjectNode o = strategies.putObject(name);
            balance(o, r.predicted().balance());
            o.put("moves", r.plan().count("move"));
            o.put("splits", r.plan().count("split"));
            o.put("merges", r.plan().count("merge"));
            o.put("movedBytes", r.plan().movedBytes());
            o.put("planMillis", r.planTime().toNanos() / 1e6);
            o.put("status", r.plan().status().name().toLowerCase(java.util.Locale.ROOT));
        });
        return root.toPrettyString() + "\n";
    }

    private static void balance(ObjectNode o, Balance b) {
        o.put("cpuMaxOverMean", b.cpuMaxOverMean());
        o.put("diskMaxOverMean", b.diskMaxOverMean());
        o.put("imbalanceDegree", b.imbalanceDegree());
    }
}
