package io.libra.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** A command that reads a snapshot and a plan, checks the plan against it, and prints a view of the result. */
abstract class PlanCheckCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    PlanInputs in;

    @Override
    public final Integer call() {
        PlanCheck c = PlanCheck.of(in.snapshot, in.plan, spec.commandLine().getErr());
        PrintWriter w = spec.commandLine().getOut();
        print(c, w);
        w.flush();
        return LibraCli.OK;
    }

    abstract void print(PlanCheck c, PrintWriter w);
}
