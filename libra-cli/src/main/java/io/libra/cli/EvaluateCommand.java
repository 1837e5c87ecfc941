package io.libra.cli;

import io.libra.core.model.Dimension;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

@Command(name = "evaluate", mixinStandardHelpOptions = true,
        description = {"Checks a plan against a snapshot and prints the predicted state.",
                "Every action is checked in order: unknown ids, a 'from' that is not the region's node, a split key outside "
                        + "the range, ..."})
final class EvaluateCommand extends PlanCheckCommand {
    @Override
    void print(PlanCheck c, PrintWriter w) {
        w.println("plan " + in.plan + " (" + c.plan().plan().strategy() + ", " + c.plan().plan().actions().size()
                + " actions) fits " + in.snapshot);
        w.println();
        w.print(PlanView.balance(c.before().balance(), c.after().balance()));
        w.println();
        boolean ring = !c.tokensAfter().isEmpty();
        Table t = new Table("node", "cpu before", "cpu after", "disk before", "disk after", ring ? "token after" : "regions after");
        for (int j = 0; j < c.before().nodeCount(); j++) {
            String id = c.before().nodes().get(j).id();
            Object placed = ring ? c.tokensAfter().get(id) : c.after().regions().stream().filter(r -> r.node().equals(id)).count();
            t.row(id, Table.f3(c.before().normalized(j, Dimension.CPU)), Table.f3(c.after().normalized(j, Dimension.CPU)),
                    Table.f3(c.before().normalized(j, Dimension.DISK)), Table.f3(c.after().normalized(j, Dimension.DISK)), placed);
        }
        w.print(t.render());
        w.println("(loads are relative to each node's target: 1.000 = balanced)");
    }
}
