package io.libra.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.RoundStats;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.SimulationResult;
import io.libra.core.sim.Simulator;
import io.libra.core.sim.StrategyRun;
import io.libra.core.schedule.Strategies;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Runs every strategy in the embedded simulator of a range-sharded store and compares them.",
                "Each strategy runs on its own copy of the same cluster, under the same workload and measurement noise, "
                        + "scored on the simulator's hidden cost model. With no arguments: paper-mixgraph with all strategies."})
final class SimulateCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    ScenarioOptions options;

    @Option(names = "--rounds", description = "planning rounds of 60 s windows (default: the scenario's)")
    Integer rounds;

    @Option(names = "--strategies", split = ",", completionCandidates = Inputs.StrategyNames.class,
            description = "comma-separated strategies (default: all of ${COMPLETION-CANDIDATES}); 'none' always runs as the reference")
    List<String> strategies;

    @CommandLine.Mixin
    LambdaOption lambda;

    @Option(names = "--no-learning", description = "plan with the paper's fixed mapping instead of a cost model learnt "
            + "from node totals (to compare the two)")
    boolean noLearning;

    @Option(names = "--cpu-weight", defaultValue = "0.5", description = "2d-wtd's weight w of CPU in its score w·cpu + (1−w)·disk (default: ${DEFAULT-VALUE})")
    double cpuWeight;

    @Option(names = "--no-guard", negatable = false, description = "plan every round even when loads fluctuate between windows")
    boolean noGuard;

    @Option(names = "--replication", description = "copies of every write in the hidden cost model (default: the scenario's, 1 for paper-mixgraph, else 3)")
    Integer replication;

    @Option(names = "--report", paramLabel = "DIR", description = "also write DIR/index.html with SVG charts")
    Path report;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
    PlanCommand.Format format;

    @Override
    public Integer call() {
        Scenario s = options.resolve(rounds, ScenarioOptions.SIMULATE_LIMITS);
        if (report != null) {
            Inputs.checkWritable(report.resolve("index.html"));
        }
        List<String> names = strategies == null ? Strategies.names() : strategies;
        for (String n : names) {
            if (!n.equals(Simulator.NONE) && !Strategies.names().contains(n)) {
                throw new BadInputException("libra: --strategies: unknown '" + n + "', expected some of " + Strategies.names());
            }
        }
        Inputs.planner(Strategies.LIBRA, lambda.value);
        if (!(cpuWeight >= 0 && cpuWeight <= 1)) {
            throw new BadInputException("libra: --cpu-weight: must be between 0 and 1, got " + cpuWeight);
        }
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), String.format(Locale.ROOT,
                "simulating %s (%d nodes, %d regions)", s.name(), s.nodes(), s.regions()));
        if (replication != null && replication < 1) {
            throw new BadInputException("libra: --replication: must be >= 1, got " + replication);
        }
        CostModel cost = CostModel.drawn(s, options.seed).withReplication(replication == null ? s.replication() : replication);
        SimulationResult result = new Simulator(cost)
                .run(new Simulator.Config(s, options.seed, names, lambda.value, !noGuard, !noLearning, cpuWeight), bar);
        bar.done();
        PrintWriter w = spec.commandLine().getOut();
        w.print(format == PlanCommand.Format.json ? json(result) : tables(result));
        if (report != null) {
            Path file = report.resolve("index.html");
            Inputs.write(file, HtmlReport.render(result, lambda.value));
            if (format == PlanCommand.Format.table) {
                w.println("report written to " + file);
            }
        }
        w.flush();
        return LibraCli.OK;
    }

    static String json(SimulationResult r) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("scenario", r.scenario());
        ObjectNode all = root.putObject("strategies");
        for (StrategyRun run : r.runs()) {
            ObjectNode o = all.putObject(run.strategy());
            o.put("cpuMaxOverMean", round(run.end().cpuMaxOverMean()));
            o.put("diskMaxOverMean", round(run.end().diskMaxOverMean()));
            o.put("moves", run.moves());
            o.put("splits", run.splits());
            o.put("movedBytes", Math.round(run.movedBytes()));
            o.put("throughputVsNone", round(run.throughputVsNone()));
            o.put("p99Millis", round(run.p99Millis()));
            if (!Double.isNaN(run.meanPredictionError())) {
                o.put("forecastError", round(run.meanPredictionError()));
            }
        }
        return root.toPrettyString() + "\n";
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    static String tables(SimulationResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "scenario %s: %s%n%d nodes, %d regions at the start, %d %s of %.0f s, seed %d, %.0f requests/s%n%n",
                r.scenario(), r.description(), r.nodes(), r.regions(), r.rounds(), r.rounds() == 1 ? "round" : "rounds",
                Simulator.WINDOW_SECONDS, r.seed(),
                r.requestsPerSec()));
        sb.append("per round: true Max/Mean cpu/disk of the window (migration traffic included), +actions carried out\n");
        List<String> header = new ArrayList<>(List.of("round"));
        r.runs().forEach(run -> header.add(run.strategy()));
        Table t = new Table(header.toArray(new String[0]));
        int rows = r.runs().stream().mapToInt(run -> run.rounds().size()).max().orElse(0);
        for (int i = 0; i < rows; i++) {
            List<Object> cells = new ArrayList<>();
            cells.add(i < r.rounds() ? Integer.toString(i) : "settle");
            for (StrategyRun run : r.runs()) {
                cells.add(i < run.rounds().size() ? cell(run.rounds().get(i)) : "");
            }
            t.row(cells.toArray());
        }
        sb.append(t.render()).append('\n');
        sb.append("end state (a quiet window after every plan was carried out):\n");
        sb.append(finalTable(r)).append('\n');
        sb.append(comparisons(r));
        return sb.toString();
    }

    private static String cell(RoundStats s) {
        int actions = s.moves() + s.splits() + s.merges();
        return String.format(Locale.ROOT, "%.2f/%.2f%s", s.cpuMaxOverMean(), s.diskMaxOverMean(),
                actions > 0 ? " +" + actions : "");
    }

    static String finalTable(SimulationResult r) {
        Table t = new Table("strategy", "cpu Max/Mean", "disk Max/Mean", "moves", "splits", "merges", "moved",
                "throughput vs none", "P99", "plan time", "forecast error");
        for (StrategyRun run : r.runs()) {
            t.row(run.strategy(), Table.f3(run.end().cpuMaxOverMean()), Table.f3(run.end().diskMaxOverMean()), run.moves(),
                    run.splits(), run.merges(), Table.bytes(run.movedBytes()), Table.f2(run.throughputVsNone()) + "x",
                    String.format(Locale.ROOT, "%.1f ms", run.p99Millis()), Table.millis(run.planMillis()),
                    Double.isNaN(run.meanPredictionError()) ? "-"
                            : String.format(Locale.ROOT, "%.1f%%", 100 * run.meanPredictionError()));
        }
        return t.render() + String.format(Locale.ROOT,
                "(throughput: load at which the busiest resource saturates, vs none; P99 at the load that puts none's busiest resource at 90%%)%n");
    }

    /** How much libra cuts each strategy's Max/Mean, per dimension. */
    static String comparisons(SimulationResult r) {
        if (r.run(Strategies.LIBRA).isEmpty()) {
            return "";
        }
        StrategyRun libra = r.run(Strategies.LIBRA).get();
        StringBuilder sb = new StringBuilder("libra's Max/Mean against the others (negative = libra lower):\n");
        for (StrategyRun other : r.runs()) {
            if (other != libra) {
                sb.append(String.format(Locale.ROOT, "  vs %-7s cpu %s, disk %s%n", other.strategy(),
                        Table.pct(libra.end().cpuMaxOverMean() / other.end().cpuMaxOverMean() - 1),
                        Table.pct(libra.end().diskMaxOverMean() / other.end().diskMaxOverMean() - 1)));
            }
        }
        return sb.toString();
    }
}
