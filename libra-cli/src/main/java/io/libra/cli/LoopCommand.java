package io.libra.cli;

import io.libra.core.Planner;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.sim.ClosedLoop;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "loop", mixinStandardHelpOptions = true,
        description = {"Runs Libra in the simulator's closed loop, as a master or sidecar runs it: measure a window, plan with "
                + "the last three windows and the previous plan, carry the plan out, measure again.",
                "Scored on each scenario's hidden cost model, against the targets of docs/benchmarks.md: the first plan "
                        + "within 1.10, every run within 1.10 by the third window, and later windows moving at most 10%% of "
                        + "the data the first moved."})
final class LoopCommand implements Callable<Integer> {
    static final int MAX_RUNS = 400;
    static final int MAX_ROUNDS = 50;
    private static final double WITHIN = 1.10;
    private static final int BY_WINDOW = 3;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--scenarios", split = ",", description = "comma-separated scenarios (default: all of ${COMPLETION-CANDIDATES})",
            completionCandidates = ScenarioNames.class)
    List<String> scenarios;

    @Option(names = "--seeds", defaultValue = "1-3", paramLabel = "FROM-TO", description = "seeds, a range FROM-TO or one "
            + "seed (default: ${DEFAULT-VALUE})")
    String seeds;

    @Option(names = "--rounds", defaultValue = "8", description = "rounds per run, at least " + BY_WINDOW
            + " (default: ${DEFAULT-VALUE})")
    int rounds;

    @CommandLine.Mixin
    LambdaOption lambda;

    @Option(names = "--truth", defaultValue = "blocks", completionCandidates = TruthNames.class,
            description = {"the shape of the hidden cost model that scores the runs: one of ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}); the others are shapes the estimate has no feature for:",
                    "virtual-iops: a read of n blocks costs n^0.7 blocks; contention: a node's CPU grows with its"
                    + " utilisation u as 1 + u; node-speed: each node does the same work at 0.7 to 1.4 times the CPU;"
                    + " disk-speed: the same at 0.7 to 1.4 times the disk bytes; disk-contention: a node's disk grows"
                    + " with its utilisation u as 1 + u; data-size: a node's disk is its work times the square root"
                    + " of its data over the mean; data-cpu: the same for a node's CPU; read-amp: a region's reads"
                    + " cost up to 4 times the disk, the more so the larger the share of writes among its requests"})
    String truth;

    @Option(names = "--no-learning", description = "plan with the paper's fixed mapping instead of a cost model learnt "
            + "from node totals (to compare the two)")
    boolean noLearning;

    @Option(names = "--windows-only", description = "keep only the windows between rounds, as a caller of `libra plan` "
            + "without --previous-plan does: each round recalls the previous plan by planning the windows again")
    boolean windowsOnly;

    static final class ScenarioNames extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        ScenarioNames() {
            super(Scenario.names());
        }
    }

    static final class TruthNames extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        TruthNames() {
            super(Arrays.stream(CostModel.Form.values()).map(CostModel.Form::cliName).toList());
        }
    }

    /** One run's outcome: the true Max/Mean after each round and the bytes each round moved. */
    record Outcome(String scenario, long seed, ClosedLoop.Run run) {
        /** How much worse than the first plan left it a run may end before the summary counts it. */
        static final double WORSE_BY = 0.03;

        boolean within(int round) {
            Score s = run.after().get(round);
            return s.cpuMaxOverMean() <= WITHIN && s.diskMaxOverMean() <= WITHIN;
        }

        double first() {
            return run.moved().get(0);
        }

        /** Whether the last round's worse dimension ended more than {@value #WORSE_BY} above the first plan's. */
        boolean endedWorse() {
            return worse(run.after().get(run.after().size() - 1)) > worse(run.after().get(0)) + WORSE_BY;
        }

        private static double worse(Score s) {
            return Math.max(s.cpuMaxOverMean(), s.diskMaxOverMean());
        }

        double later() {
            return run.moved().subList(BY_WINDOW, run.moved().size()).stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    @Override
    public Integer call() {
        List<String> names = scenarios == null ? Scenario.names() : scenarios;
        for (String n : names) {
            if (!Scenario.names().contains(n)) {
                throw new BadInputException("libra: --scenarios: unknown '" + n + "', expected some of " + Scenario.names());
            }
        }
        long[] range = seedRange(seeds);
        if (rounds < BY_WINDOW || rounds > MAX_ROUNDS) {
            throw new BadInputException("libra: --rounds: must be between " + BY_WINDOW + " and " + MAX_ROUNDS + ", got " + rounds);
        }
        long runs = (range[1] - range[0] + 1) * names.size();
        if (runs > MAX_RUNS) {
            throw new BadInputException("libra: --seeds: " + runs + " runs over " + names.size() + " scenarios, at most "
                    + MAX_RUNS);
        }
        CostModel.Form form = CostModel.Form.byName(truth).orElseThrow(() -> new BadInputException(
                "libra: --truth: unknown '" + truth + "', expected one of " + new TruthNames()));
        Inputs.planner("libra", lambda.value);
        List<Outcome> out = new ArrayList<>();
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "closed loop");
        for (String n : names) {
            for (long seed = range[0]; seed <= range[1]; seed++) {
                Planner planner = Planner.builder().config(SchedulerConfig.DEFAULT.withLambda(lambda.value))
                        .learning(!noLearning).build();
                out.add(new Outcome(n, seed, ClosedLoop.run(new ClosedLoop(Scenario.byName(n), seed, planner, form, windowsOnly), rounds)));
                bar.step(out.size(), (int) runs);
            }
        }
        bar.done();
        PrintWriter w = spec.commandLine().getOut();
        w.print(table(out));
        w.print(summary(out));
        w.flush();
        return LibraCli.OK;
    }

    static long[] seedRange(String text) {
        String[] p = text.trim().split("-", -1);
        try {
            long from = Long.parseLong(p[0].trim());
            long to = p.length == 2 ? Long.parseLong(p[1].trim()) : from;
            if (p.length <= 2 && from >= 0 && to >= from) {
                return new long[] {from, to};
            }
        } catch (NumberFormatException e) {
            // falls through to the one line below
        }
        throw new BadInputException("libra: --seeds: expected a seed or a range FROM-TO of seeds >= 0, got '" + text + "'");
    }

    private static String table(List<Outcome> out) {
        Table t = new Table("scenario", "seed", "first plan", "window " + BY_WINDOW, "end", "moved by the first",
                "rounds " + (BY_WINDOW + 1) + "+");
        for (Outcome o : out) {
            t.row(o.scenario(), o.seed(), score(o.run().after().get(0)), score(o.run().after().get(BY_WINDOW - 1)),
                    score(o.run().after().get(o.run().after().size() - 1)), Table.bytes(o.first()), Table.bytes(o.later()));
        }
        return t.render();
    }

    private static String score(Score s) {
        return String.format(Locale.ROOT, "%.3f/%.3f", s.cpuMaxOverMean(), s.diskMaxOverMean());
    }

    static String summary(List<Outcome> out) {
        long first = out.stream().filter(o -> o.within(0)).count();
        long third = out.stream().filter(o -> o.within(BY_WINDOW - 1)).count();
        long worse = out.stream().filter(Outcome::endedWorse).count();
        double moved = out.stream().mapToDouble(Outcome::first).sum();
        double later = out.stream().mapToDouble(Outcome::later).sum();
        double settled = out.stream().filter(o -> o.within(BY_WINDOW - 1)).mapToDouble(Outcome::later).sum();
        return String.format(Locale.ROOT, "true CPU/disk Max/Mean after each plan is carried out%n"
                + "first plan within %.2f in both: %d of %d%n"
                + "within %.2f in both by window %d: %d of %d%n"
                + "ended more than %.2f worse than the first plan left it: %d of %d%n"
                + "data moved from round %d on: %s, %s of the first plans' %s (target: at most 10%%)%n"
                + "  by the runs within %.2f by window %d (%d): %s, %s; by those still above it then (%d): %s, %s%n"
                + "actions the executor refused: %d of %d planned%n",
                WITHIN, first, out.size(), WITHIN, BY_WINDOW, third, out.size(), Outcome.WORSE_BY, worse, out.size(),
                BY_WINDOW + 1, Table.bytes(later), share(later, moved), Table.bytes(moved),
                WITHIN, BY_WINDOW, third, Table.bytes(settled), share(settled, moved),
                out.size() - third, Table.bytes(later - settled), share(later - settled, moved),
                out.stream().mapToInt(o -> o.run().refused()).sum(), out.stream().mapToInt(o -> o.run().planned()).sum());
    }

    /** {@code part} as a percentage of {@code whole}; a dash when nothing was moved to compare with. */
    private static String share(double part, double whole) {
        return whole > 0 ? String.format(Locale.ROOT, "%.1f%%", 100 * part / whole) : "–";
    }
}
