package io.libra.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Shows per-node CPU and disk before and after a plan, and why each action was taken.",
                "Bars per node and dimension (# = load, | = the node's target), the balance table, then every action."})
final class ExplainCommand extends PlanCheckCommand {
    @Override
    void print(PlanCheck c, PrintWriter w) {
        w.println("plan " + in.plan + ": strategy " + c.plan().plan().strategy() + ", "
                + c.plan().plan().actions().size() + " actions");
        w.println("load per node relative to its target (| = target, # = load):");
        w.println();
        w.print(PlanView.bars(c.before(), c.after()));
        w.print(PlanView.balance(c.before().balance(), c.after().balance()));
        w.println();
        w.print(PlanView.actions(c.plan().plan()));
    }
}
