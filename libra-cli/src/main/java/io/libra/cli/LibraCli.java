package io.libra.cli;

import io.libra.core.format.FormatException;
import io.libra.core.plan.InvalidPlanException;
import java.io.PrintWriter;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code libra} command. Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage. Bad
 * input is reported as one line on stderr ({@code FILE: json.path: reason}), never a stack trace.
 */
@Command(name = "libra", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Plans CPU and disk balance for range-sharded stores offline, compares strategies and simulates them.",
        subcommands = {PlanCommand.class, ExplainCommand.class, EvaluateCommand.class, CompareCommand.class,
                SnapshotCommand.class, SimulateCommand.class, LoopCommand.class, BenchCommand.class,
                AutoComplete.GenerateCompletion.class},
        footer = {"", "Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage."})
public final class LibraCli implements Runnable {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command line with the given streams; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cmd = commandLine();
        cmd.setOut(out);
        cmd.setErr(err);
        int code;
        try {
            code = cmd.execute(args);
        } catch (OutOfMemoryError e) {
            // the size limits keep the simulator well inside a default heap; this is the last guard
            err.println("libra: error: out of memory (max heap " + Table.bytes(Runtime.getRuntime().maxMemory())
                    + "); use smaller --nodes/--regions, or give Java more heap: JAVA_OPTS=-Xmx8g libra ...");
            code = FAILURE;
        }
        out.flush();
        err.flush();
        return code;
    }

    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new LibraCli());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setUsageHelpAutoWidth(true);
        cmd.getSubcommands().get("generate-completion").getCommandSpec().usageMessage().hidden(false)
                .description("Prints a bash/zsh completion script for libra (source it in your shell).");
        cmd.setExitCodeExceptionMapper(LibraCli::exitCode);
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println(message(ex));
            commandLine.getErr().flush();
            return exitCode(ex);
        });
        cmd.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("libra: " + ex.getMessage());
            // a mistyped command or option: picocli knows the near names ("Did you mean: plan?")
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            c.getErr().flush();
            return BAD_INPUT;
        });
        return cmd;
    }

    static int exitCode(Throwable ex) {
        return ex instanceof FormatException || ex instanceof InvalidPlanException || ex instanceof BadInputException
                || ex instanceof CommandLine.ParameterException ? BAD_INPUT : FAILURE;
    }

    static String message(Throwable ex) {
        if (ex instanceof FormatException f) {
            // the whole document is at fault (missing, empty, not JSON): no JSON path to show
            return FormatException.ROOT.equals(f.jsonPath()) ? f.source() + ": " + f.reason() : f.getMessage();
        }
        if (ex instanceof BadInputException) {
            return ex.getMessage();
        }
        String m = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        return "libra: error: " + m.lines().findFirst().orElse(m);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
