package io.libra.cassandra.sim;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark of docs/benchmarks.md ("The sidecar in closed loop"): each scenario and seed run as
 * a single-token ring by {@link RingLoop}, with the targets of issue 8 counted at the end.
 * {@code java -cp libra-cassandra/target/libra-cassandra.jar io.libra.cassandra.sim.RingLoopMain --seeds 1-12}
 */
@Command(name = "ring-loop", mixinStandardHelpOptions = true,
        description = "Runs the sidecar's planning in closed loop on simulated single-token rings.")
public final class RingLoopMain implements Callable<Integer> {
    private static final double WITHIN = 1.10;
    private static final int BY_WINDOW = 3;

    @Option(names = "--scenarios", split = ",", description = "scenarios (default: all)")
    List<String> scenarios;

    @Option(names = "--seeds", defaultValue = "1-3", description = "FROM-TO (default: ${DEFAULT-VALUE})")
    String seeds;

    @Option(names = "--rounds", defaultValue = "8", description = "rounds per run (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--truth", defaultValue = "blocks", description = "the hidden cost model's shape (default: ${DEFAULT-VALUE})")
    String truth;

    @Option(names = "--lambda", defaultValue = "0.1", description = "the sidecar's planner.lambda (default: ${DEFAULT-VALUE}, as shipped)")
    double lambda;

    @Option(names = "--max-moves", defaultValue = "2", description = "the sidecar's planner.max_moves (default: ${DEFAULT-VALUE}, as shipped)")
    int maxMoves;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RingLoopMain()).execute(args));
    }

    @Override
    public Integer call() {
        CostModel.Form form = CostModel.Form.byName(truth).orElseThrow(() -> bad("--truth: unknown '" + truth + "'"));
        if (!seeds.matches("\\d{1,9}(-\\d{1,9})?")) {
            throw bad("--seeds: expected a seed or a range FROM-TO, got '" + seeds + "'");
        }
        String[] range = seeds.split("-");
        long from = Long.parseLong(range[0]);
        long to = Long.parseLong(range[range.length - 1]);
        List<String> names = scenarios == null ? Scenario.names() : scenarios;
        for (String n : names) {
            if (!Scenario.names().contains(n)) {
                throw bad("--scenarios: unknown '" + n + "', expected some of " + Scenario.names());
            }
        }
        if (rounds < BY_WINDOW) {
            throw bad("--rounds: at least " + BY_WINDOW + ", got " + rounds);
        }
        PrintWriter out = new PrintWriter(System.out, true);
        out.printf(Locale.ROOT, "%-15s %4s  %-11s  %-11s  %-11s  %-11s  %12s  %12s  %s%n", "scenario", "seed", "start",
                "first plan", "window 3", "end", "first moved", "rounds 4+", "moves/refused");
        int runs = 0;
        int first = 0;
        int byWindow = 0;
        double firstBytes = 0;
        double laterBytes = 0;
        for (String name : names) {
            for (long seed = from; seed <= to; seed++) {
                RingLoop.Run r = RingLoop.run(new RingLoop(Scenario.byName(name), seed, form, config()), rounds);
                double later = r.streamed().subList(BY_WINDOW, rounds).stream().mapToDouble(Double::doubleValue).sum();
                out.printf(Locale.ROOT, "%-15s %4d  %s  %s  %s  %s  %9.1f GiB  %9.1f GiB  %d/%d%n", name, seed, pair(r.start()),
                        pair(r.after().get(0)), pair(r.after().get(BY_WINDOW - 1)), pair(r.after().get(rounds - 1)),
                        r.streamed().get(0) / (1L << 30), later / (1L << 30), r.planned(), r.refused());
                runs++;
                first += within(r.after().get(0)) ? 1 : 0;
                byWindow += r.after().subList(0, BY_WINDOW).stream().anyMatch(RingLoopMain::within) ? 1 : 0;
                firstBytes += r.streamed().subList(0, BY_WINDOW).stream().mapToDouble(Double::doubleValue).sum();
                laterBytes += later;
            }
        }
        out.printf(Locale.ROOT, "first plan within %.2f in both: %d of %d%n", WITHIN, first, runs);
        out.printf(Locale.ROOT, "within %.2f in both by window %d: %d of %d%n", WITHIN, BY_WINDOW, byWindow, runs);
        out.printf(Locale.ROOT, "streamed from round %d on: %.1f GiB, %.1f%% of rounds 1-%d's %.1f GiB%n", BY_WINDOW + 1,
                laterBytes / (1L << 30), firstBytes > 0 ? 100 * laterBytes / firstBytes : 0, BY_WINDOW, firstBytes / (1L << 30));
        return 0;
    }

    private SidecarConfig config() {
        SidecarConfig c = new SidecarConfig();
        c.planner.lambda = lambda;
        c.planner.maxMoves = maxMoves;
        return c;
    }

    private CommandLine.ParameterException bad(String why) {
        return new CommandLine.ParameterException(new CommandLine(this), why);
    }

    private static boolean within(Score s) {
        return s.cpuMaxOverMean() <= WITHIN && s.diskMaxOverMean() <= WITHIN;
    }

    private static String pair(Score s) {
        return String.format(Locale.ROOT, "%.3f/%.3f", s.cpuMaxOverMean(), s.diskMaxOverMean());
    }
}
