package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.schedule.Strategies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command, run in-process through the real command line. */
class CommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;
    static Path snapshot;

    @TempDir
    Path dir;

    @BeforeAll
    static void generateSnapshot() {
        snapshot = shared.resolve("snap.json");
        Cli.Result r = Cli.run("snapshot", "generate", "--scenario", "paper-mixgraph", "--nodes", "4", "--regions", "64",
                "--seed", "3", "--out", snapshot.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("4 nodes, 64 regions");
    }

    @ParameterizedTest
    @ValueSource(strings = {"plan", "explain", "evaluate", "compare", "snapshot", "simulate", "loop", "bench", "generate-completion"})
    void everyCommandHasHelp(String command) {
        Cli.Result r = Cli.run(command, "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("Usage: libra " + command);
    }

    @Test
    void snapshotGenerateHasHelp() {
        Cli.Result r = Cli.run("snapshot", "generate", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("--scenario");
    }

    @Test
    void versionAndTopLevelHelp() {
        assertThat(Cli.run("--version").out()).startsWith("libra ");
        Cli.Result help = Cli.run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("simulate").contains("Exit codes");
    }

    @Test
    void completionScriptCoversCommandsAndOptions() {
        Cli.Result r = Cli.run("generate-completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("complete -F").contains("simulate").contains("--snapshot").contains("paper-mixgraph");
    }

    @Test
    void unknownCommandAndOptionAreUsageErrors() {
        Cli.Result r = Cli.run("frobnicate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Unmatched argument");
        assertThat(Cli.run("plan", "--snapshot", snapshot.toString(), "--bogus").code()).isEqualTo(2);
    }

    @Test
    void mistypedCommandSuggestsTheRightOne() {
        Cli.Result r = Cli.run("plna");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Did you mean").contains("plan");
    }

    @Test
    void helpTextHasWholeSentencesAndEveryOptionIsDescribed() {
        // the top-level list shows each command's first description line: every line is a whole sentence
        picocli.CommandLine root = LibraCli.commandLine();
        java.util.List<picocli.CommandLine> all = new java.util.ArrayList<>();
        collect(root, all);
        for (picocli.CommandLine c : all) {
            for (String d : c.getCommandSpec().usageMessage().description()) {
                assertThat(d).as(c.getCommandName() + " description line").matches("(?s).*[.)]$");
                // picocli formats each line: a bare % would print a WARN and the raw text
                assertThatCode(() -> String.format(d)).as(c.getCommandName() + " description line").doesNotThrowAnyException();
            }
            for (var o : c.getCommandSpec().options()) {
                assertThat(String.join(" ", o.description())).as(c.getCommandSpec().qualifiedName() + " " + o.longestName())
                        .matches("(?s).*[a-z].*").doesNotStartWith("(default");
                for (String d : o.description()) {
                    assertThatCode(() -> String.format(d.replaceAll("\\$\\{[^}]*}", ""))).as(o.longestName())
                            .doesNotThrowAnyException();
                }
            }
        }
    }

    private static void collect(picocli.CommandLine c, java.util.List<picocli.CommandLine> into) {
        into.add(c);
        c.getSubcommands().values().forEach(s -> collect(s, into));
    }

    @Test
    void lambdaHelpSaysWhatItDoes() {
        for (String command : List.of("plan", "compare", "simulate")) {
            assertThat(Cli.run(command, "--help").out().replaceAll("\\s+", " ")).as(command)
                    .contains("--lambda=<lambda> λ, the tolerated imbalance: a node more than λ above its target (1+λ)");
        }
    }

    @Test
    void missingFileIsOneLineWithoutJsonPath() {
        Cli.Result r = Cli.run("plan", "--snapshot", dir.resolve("missing.json").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(dir.resolve("missing.json") + ": no such file");
    }

    @Test
    void simulateChecksTheReportFolderBeforeSimulating() throws IOException {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        Cli.Result r = Cli.run("simulate", "--report", blocker.resolve("report").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("libra: error: cannot write " + blocker.resolve("report").resolve("index.html"));
    }

    @Test
    void unknownStrategyIsBadInput() {
        Cli.Result r = Cli.run("plan", "--snapshot", snapshot.toString(), "--strategy", "magic");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("libra: --strategy: unknown 'magic', expected one of " + Strategies.names());
    }

    /** Each bad option of loop is one line naming it, exit 2, before any run starts. */
    @Test
    void loopRefusesBadOptionsInOneLine() {
        assertThat(Cli.run("loop", "--seeds", "3-1").err().strip())
                .isEqualTo("libra: --seeds: expected a seed or a range FROM-TO of seeds >= 0, got '3-1'");
        assertThat(Cli.run("loop", "--seeds", "x").code()).isEqualTo(2);
        assertThat(Cli.run("loop", "--scenarios", "nope").err().strip()).startsWith("libra: --scenarios: unknown 'nope'");
        assertThat(Cli.run("loop", "--rounds", "2").err().strip()).isEqualTo("libra: --rounds: must be between 3 and 50, got 2");
        assertThat(Cli.run("loop", "--truth", "nope").err().strip()).isEqualTo("libra: --truth: unknown 'nope', expected one"
                + " of [blocks, virtual-iops, contention, node-speed, disk-speed,"
                + " disk-contention, data-size, data-cpu, read-amp]");
        Cli.Result many = Cli.run("loop", "--seeds", "0-1000");
        assertThat(many.code()).isEqualTo(2);
        assertThat(many.err().strip()).isEqualTo("libra: --seeds: 13013 runs over 13 scenarios, at most 400");
        assertThat(many.out()).isEmpty();
    }

    /** The summary counts the targets over the runs it printed. */
    @Test
    void loopSummarisesTheTargets() {
        Cli.Result r = Cli.run("loop", "--scenarios", "calm", "--seeds", "1", "--rounds", "3");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("calm ").contains("first plan within 1.10 in both: 1 of 1")
                .contains("within 1.10 in both by window 3: 1 of 1")
                .contains("ended more than 0.03 worse than the first plan left it: 0 of 1").contains("data moved from round 4 on: 0 B");
    }

    /** The summary says how many of the plans' actions the executor refused (a store refuses a split of a region it is moving). */
    @Test
    void loopCountsTheActionsTheExecutorRefused() {
        Cli.Result r = Cli.run("loop", "--scenarios", "paper-mixgraph", "--seeds", "1", "--rounds", "3");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("actions the executor refused: 0 of [1-9][0-9]* planned");
    }

    /** Another shape of the hidden model scores the same runs differently (the planner sees only its measurements). */
    @Test
    void loopScoresOnTheTruthItIsGiven() {
        String[] run = {"loop", "--scenarios", "paper-mixgraph", "--seeds", "1", "--rounds", "3"};
        Cli.Result blocks = Cli.run(run);
        Cli.Result contention = Cli.run(concat(run, "--truth", "contention"));
        assertThat(contention.code()).as(contention.err()).isZero();
        assertThat(row(contention.out())).startsWith("paper-mixgraph").isNotEqualTo(row(blocks.out()));
    }

    private static String row(String loopOut) {
        return loopOut.lines().filter(l -> l.startsWith("paper-mixgraph")).findFirst().orElse("");
    }

    @Test
    void badLambdaIsBadInput() {
        Cli.Result r = Cli.run("plan", "--snapshot", snapshot.toString(), "--lambda", "-1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("libra: --lambda: must be in (0, 10)");
    }

    @Test
    void planPrintsBalanceAndActionsWithReasons() {
        Cli.Result r = Cli.run("plan", "--snapshot", snapshot.toString());
        assertThat(r.code()).isZero();
        // the generated snapshot is imbalanced, so the plan has actions and every one has a reason
        assertThat(r.out()).contains("strategy libra, status planned").contains("cpu Max/Mean").contains("disk Max/Mean")
                .doesNotContain("no actions");
        long actions = r.out().lines().filter(l -> l.matches(" *\\d+\\. (move|split|merge) .*")).count();
        long reasons = r.out().lines().filter(l -> l.strip().startsWith("why: ")).count();
        assertThat(actions).isPositive();
        assertThat(reasons).isEqualTo(actions);
        assertThat(r.out().lines().findFirst().orElseThrow()).contains(", " + actions + " actions, planned in ")
                .doesNotContain("(" + actions + " actions)");
    }

    @Test
    void runtimeFailureIsExitCodeOneWithOneLine() throws IOException {
        Path blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "x");
        Cli.Result r = Cli.run("plan", "--snapshot", snapshot.toString(), "--out", blocker.resolve("plan.json").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("libra: error: cannot write " + blocker.resolve("plan.json"));
    }

    @Test
    void planJsonGoesToStdoutAndReadsBack() throws IOException {
        Cli.Result r = Cli.run("plan", "--snapshot", snapshot.toString(), "--format", "json", "--strategy", "2d-wtd");
        assertThat(r.code()).isZero();
        JsonNode plan = JSON.readTree(r.out());
        assertThat(plan.get("format").asText()).isEqualTo("libra.plan/v1");
        assertThat(plan.get("strategy").asText()).isEqualTo("2d-wtd");
        assertThat(plan.get("snapshot").asText()).isEqualTo(SnapshotCodec.sha256(Files.readAllBytes(snapshot)));
        assertThat(plan.get("predicted").has("cpuMaxOverMean")).isTrue();
        assertThat(PlanCodec.read("stdout", r.out().getBytes()).strategy()).isEqualTo("2d-wtd");
    }

    @Test
    void planOutThenExplainAndEvaluate() {
        Path plan = dir.resolve("plan.json");
        Cli.Result made = Cli.run("plan", "--snapshot", snapshot.toString(), "--out", plan.toString());
        assertThat(made.code()).isZero();
        assertThat(made.out()).contains("plan written to " + plan);
        assertThat(plan).exists();

        Cli.Result explained = Cli.run("explain", "--snapshot", snapshot.toString(), "--plan", plan.toString());
        assertThat(explained.code()).isZero();
        assertThat(explained.out()).contains("cpu before").contains("disk after").contains("#").contains("imbalance degree");
        assertThat(explained.err()).isEmpty();

        Cli.Result evaluated = Cli.run("evaluate", "--snapshot", snapshot.toString(), "--plan", plan.toString());
        assertThat(evaluated.code()).isZero();
        assertThat(evaluated.out()).contains("fits").contains("regions after");
    }

    @Test
    void evaluateWarnsWhenThePlanWasMadeFromAnotherSnapshot() throws IOException {
        Path plan = dir.resolve("plan.json");
        Files.writeString(plan, "{\"format\": \"libra.plan/v1\", \"strategy\": \"libra\", \"snapshot\": \"abc\", \"actions\": []}");
        Cli.Result r = Cli.run("evaluate", "--snapshot", snapshot.toString(), "--plan", plan.toString());
        assertThat(r.code()).isZero();
        assertThat(r.err()).startsWith("warning: " + plan + " was made from another snapshot");
    }

    @Test
    void compareHasOneRowPerStrategy() {
        Cli.Result r = Cli.run("compare", "--snapshot", snapshot.toString());
        assertThat(r.code()).isZero();
        for (String s : Strategies.names()) {
            assertThat(r.out()).containsPattern("(?m)^" + s + " ");
        }
        assertThat(r.out()).contains("plan time").contains("moved");
    }

    @Test
    void compareJson() throws IOException {
        Cli.Result r = Cli.run("compare", "--snapshot", snapshot.toString(), "--format", "json");
        assertThat(r.code()).isZero();
        JsonNode all = JSON.readTree(r.out()).get("strategies");
        assertThat(all.size()).isEqualTo(Strategies.names().size());
        assertThat(all.get("libra").has("planMillis")).isTrue();
    }

    @Test
    void snapshotGenerateRejectsUnknownScenario() {
        Cli.Result r = Cli.run("snapshot", "generate", "--scenario", "nope", "--out", dir.resolve("x.json").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("libra: --scenario: unknown scenario 'nope'");
    }

    @Test
    void snapshotWithoutSubcommandIsUsageError() {
        assertThat(Cli.run("snapshot").code()).isEqualTo(2);
    }

    @Test
    void simulateJsonHasTheDocumentedShape() throws IOException {
        Cli.Result r = Cli.run("simulate", "--scenario", "paper-mixgraph", "--nodes", "4", "--regions", "48", "--rounds", "3",
                "--strategies", "libra,2d-iso", "--format", "json");
        assertThat(r.code()).isZero();
        JsonNode root = JSON.readTree(r.out());
        assertThat(root.get("scenario").asText()).isEqualTo("paper-mixgraph");
        JsonNode libra = root.get("strategies").get("libra");
        assertThat(root.get("strategies").has("2d-iso")).isTrue();
        assertThat(libra.has("cpuMaxOverMean")).isTrue();
        List<String> fields = List.of("cpuMaxOverMean", "diskMaxOverMean", "moves", "splits", "movedBytes",
                "throughputVsNone", "p99Millis", "forecastError");
        libra.fieldNames().forEachRemaining(f -> assertThat(fields).contains(f));
        assertThat(libra.size()).isEqualTo(fields.size());
    }

    @Test
    void simulateTableAndHtmlReport() throws IOException {
        Path report = dir.resolve("report");
        Cli.Result r = Cli.run("simulate", "--scenario", "ycsb-a", "--nodes", "4", "--regions", "32", "--rounds", "2",
                "--strategies", "libra", "--report", report.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("per round").contains("end state").contains("throughput vs none").contains("settle");
        String html = Files.readString(report.resolve("index.html"));
        assertThat(html).contains("<svg").contains("polyline").contains("libra");
        assertThat(html).doesNotContain("<script").doesNotContain("https://");
    }

    @Test
    void simulateWithOverriddenWorkloadShape() throws IOException {
        String[] run = {"simulate", "--scenario", "ycsb-b", "--nodes", "4", "--regions", "32", "--rounds", "2",
                "--strategies", "2d-iso", "--replication", "1", "--format", "json"};
        Cli.Result given = Cli.run(run);
        Cli.Result overridden = Cli.run(concat(run, "--hotness", "uniform", "--values", "lognormal"));
        assertThat(overridden.code()).isZero();
        JsonNode shaped = JSON.readTree(overridden.out()).get("strategies");
        JsonNode plain = JSON.readTree(given.out()).get("strategies");
        assertThat(shaped.fieldNames()).toIterable().containsExactly("none", "2d-iso");
        // a uniform, log-normal workload is another cluster: the override must reach the simulation
        assertThat(shaped.get("none").get("cpuMaxOverMean").asDouble()).isNotEqualTo(plain.get("none").get("cpuMaxOverMean").asDouble());
        assertThat(shaped.get("none").get("cpuMaxOverMean").asDouble()).isLessThan(plain.get("none").get("cpuMaxOverMean").asDouble());
    }

    @Test
    void scenarioHeaderFollowsOverrides() throws IOException {
        Path report = dir.resolve("report");
        Cli.Result r = Cli.run("simulate", "--nodes", "5", "--regions", "40", "--rounds", "1", "--strategies", "libra",
                "--hotness", "uniform", "--values", "fixed", "--report", report.toString());
        assertThat(r.code()).isZero();
        String header = r.out().lines().findFirst().orElseThrow();
        assertThat(header).isEqualTo("scenario paper-mixgraph: 5 nodes, write-only, uniform requests over the key space, "
                + "fixed 1 KiB values (--nodes, --hotness, --values overridden)");
        assertThat(Files.readString(report.resolve("index.html"))).contains("5 nodes, write-only, uniform requests")
                .doesNotContain("Mixgraph key-range").doesNotContain("8 nodes");
        Cli.Result plain = Cli.run("simulate", "--nodes", "4", "--regions", "32", "--rounds", "1", "--strategies", "libra");
        assertThat(plain.out()).startsWith("scenario paper-mixgraph: 4 nodes, write-only, Mixgraph key-range hotness, "
                + "Pareto value sizes averaging 1 KiB (hot ranges hold small values) (--nodes overridden)");
    }

    @Test
    void enumValuesAreShownAndAcceptedInLowerCase() {
        Cli.Result help = Cli.run("simulate", "--help");
        assertThat(help.out()).contains("mixgraph, zipf, latest, uniform").contains("pareto_anti_correlated, pareto, lognormal")
                .doesNotContain("MIXGRAPH").doesNotContain("PARETO");
        Path out = dir.resolve("s.json");
        assertThat(Cli.run("snapshot", "generate", "--nodes", "2", "--regions", "4", "--hotness", "zipf", "--values",
                "pareto-anti-correlated", "--out", out.toString()).code()).isZero();
        Cli.Result bad = Cli.run("snapshot", "generate", "--hotness", "hot", "--out", out.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown 'hot', expected one of mixgraph, zipf, latest, uniform");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void simulateRejectsUnknownStrategy() {
        Cli.Result r = Cli.run("simulate", "--strategies", "libra,nope");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("libra: --strategies: unknown 'nope'");
    }

    @Test
    void simulateRejectsResizingFixedCapacityScenario() {
        Cli.Result r = Cli.run("simulate", "--scenario", "heterogeneous", "--nodes", "4");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("heterogeneous has 6 nodes of fixed capacities");
    }

    @Test
    void benchPrintsOneRowPerSize() {
        Cli.Result r = Cli.run("bench", "--sizes", "4x32,8x64");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("peak heap").containsPattern("(?m)^ +4 +32 ").containsPattern("(?m)^ +8 +64 ");
    }

    @Test
    void benchRejectsBadSizes() {
        Cli.Result r = Cli.run("bench", "--sizes", "8by256");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("libra: --sizes: expected NODESxREGIONS like 8x256, with 1 to 500 regions per node and at most 200000 regions, got '8by256'");
    }
}
