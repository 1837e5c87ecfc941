package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs show what the commands print today: every {@code $ libra ...} example in docs/cli.md
 * runs, in order (later ones read what earlier ones wrote), and its output must be the one shown
 * (DocExamples says how "..." and timings are read). Also formats.md's plan action and the
 * README's headline table. A docs change that breaks an example, or a code change that changes
 * what an example prints, fails the build.
 */
class DocsExamplesTest {
    static final Path DOCS = Path.of("..", "docs");

    @TempDir
    static Path dir;

    /** Stand-ins for a sidecar and an HBase master, serving examples/ycsb-a-4nodes as their window. */
    private static LocalServer sidecar;
    private static LocalServer master;
    /** The docs' host names in arguments, and what they stand for here. */
    private static final Map<String, String> HOSTS = new LinkedHashMap<>();
    /** Where the stand-ins listen, and how the docs write it in output. */
    private static final Map<String, String> SHOWN = new LinkedHashMap<>();
    /** simulate --format json's output, shared by the README check. */
    private static String simulateJson;

    @BeforeAll
    static void standIns() throws IOException {
        String example = Files.readString(ExamplesTest.EXAMPLES.resolve("ycsb-a-4nodes.snapshot.json"));
        sidecar = LocalServer.http();
        sidecar.body = example.replace("\"store\" : \"generic\"", "\"store\" : \"cassandra\"").getBytes(StandardCharsets.UTF_8);
        master = LocalServer.http();
        master.body = new String(HbaseMasterCaptureTest.recorded("snapshot.json"), StandardCharsets.UTF_8)
                .replace("\\\"store\\\" : \\\"generic\\\"", "\\\"store\\\" : \\\"hbase\\\"").getBytes(StandardCharsets.UTF_8);
        HOSTS.put("127.0.0.1:9044", sidecar.address());
        HOSTS.put("master1", master.address());
        SHOWN.put(sidecar.address(), "127.0.0.1:9044");
        SHOWN.put(master.address(), "master1:16010");
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    @Test
    void everyCliExampleShowsWhatTheCommandPrints() throws IOException {
        List<DocExamples.Example> examples = DocExamples.in(DOCS.resolve("cli.md"));
        assertThat(examples).extracting(e -> e.args().get(0))
                .contains("plan", "explain", "evaluate", "compare", "snapshot", "simulate", "loop");
        for (DocExamples.Example e : examples) {
            Cli.Result r = Cli.run(local(e.args()));
            assertThat(r.code()).as(e.where() + ": " + r.err()).isZero();
            List<String> printed = asDocumented(r.out()).lines().toList();
            assertThat(DocExamples.matches(e.shown(), printed))
                    .as("%s: the docs show%n%s%nthe command printed%n%s", e.where(), String.join("\n", e.shown()), String.join("\n", printed))
                    .isTrue();
            if (e.args().contains("--format") && e.args().get(0).equals("simulate")) {
                simulateJson = r.out();
            }
        }
        // snapshot generate wrote the shipped example again, byte for byte
        assertThat(dir.resolve("examples/mixgraph-8nodes.snapshot.json"))
                .hasSameBinaryContentAs(ExamplesTest.EXAMPLES.resolve("mixgraph-8nodes.snapshot.json"));
        readmeHeadlineTableIsWhatSimulatePrints();
    }

    /** The docs' paths and hosts made real: inputs from the repo's examples/, whatever a command writes in a temporary folder. */
    private static String[] local(List<String> args) {
        String[] real = new String[args.size()];
        for (int i = 0; i < real.length; i++) {
            String arg = args.get(i);
            boolean written = i > 0 && args.get(i - 1).equals("--out");
            real[i] = HOSTS.getOrDefault(arg, arg);
            for (Map.Entry<String, String> h : HOSTS.entrySet()) {
                real[i] = real[i].replace("://" + h.getKey(), "://" + h.getValue());
            }
            if (arg.startsWith("examples/") && !written) {
                real[i] = ExamplesTest.EXAMPLES.resolve(arg.substring("examples/".length())).toString();
            } else if (arg.endsWith(".json")) {
                real[i] = dir.resolve(arg).toString();
            }
        }
        return real;
    }

    private static String asDocumented(String out) {
        String text = out.replace(dir + "/", "").replace(ExamplesTest.EXAMPLES + "/", "examples/");
        for (Map.Entry<String, String> h : SHOWN.entrySet()) {
            text = text.replace(h.getKey(), h.getValue());
        }
        return text;
    }

    /** The README's table: simulate's end state per strategy, "cpu / disk" Max/Mean to two decimals. */
    private static void readmeHeadlineTableIsWhatSimulatePrints() throws IOException {
        assertThat(simulateJson).as("docs/cli.md has a simulate --format json example").isNotNull();
        List<String> readme = Files.readAllLines(Path.of("..", "README.md"));
        int header = readme.indexOf("| none | libra | 1d-cpu | 1d-io | 2d-iso | 2d-wtd |");
        assertThat(header).as("README.md's headline table").isPositive();
        String[] names = cells(readme.get(header));
        String[] shown = cells(readme.get(header + 2));
        JsonNode strategies = new ObjectMapper().readTree(simulateJson).path("strategies");
        for (int i = 0; i < names.length; i++) {
            JsonNode end = strategies.path(names[i]);
            assertThat(shown[i].replace("**", "")).as("README.md: " + names[i])
                    .isEqualTo(String.format(java.util.Locale.ROOT, "%.2f / %.2f",
                            end.path("cpuMaxOverMean").asDouble(), end.path("diskMaxOverMean").asDouble()));
        }
    }

    private static String[] cells(String row) {
        return java.util.Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::strip).toArray(String[]::new);
    }

    /** Each command's synopsis in docs/cli.md (its first block starting "libra CMD") lists every option the command has. */
    @Test
    void everySynopsisListsTheCommandsOptions() throws IOException {
        Map<String, java.util.Set<String>> synopses = DocExamples.synopses(DOCS.resolve("cli.md"));
        assertThat(synopses.keySet()).contains("plan", "explain", "evaluate", "compare", "snapshot capture", "snapshot generate",
                "simulate", "loop", "bench");
        picocli.CommandLine libra = LibraCli.commandLine();
        synopses.forEach((command, documented) -> {
            picocli.CommandLine c = libra;
            for (String word : command.split(" ")) {
                c = c.getSubcommands().get(word);
            }
            java.util.Set<String> options = new java.util.TreeSet<>();
            c.getCommandSpec().options().forEach(o -> options.add(o.longestName()));
            options.removeAll(List.of("--help", "--version"));
            assertThat(documented).as("docs/cli.md's synopsis of libra " + command).isEqualTo(options);
        });
    }

    /** examples/README.md says how each shipped snapshot was made: those commands make it again, byte for byte. */
    @Test
    void theExamplesAreMadeAsTheirReadmeSays() throws IOException {
        List<String> made = Files.readAllLines(ExamplesTest.EXAMPLES.resolve("README.md")).stream()
                .filter(l -> l.startsWith("libra snapshot generate ")).toList();
        assertThat(made).hasSize(ExamplesTest.snapshots().size());
        for (String line : made) {
            List<String> args = List.of(line.substring("libra ".length()).split("\\s+"));
            Cli.Result r = Cli.run(local(args));
            assertThat(r.code()).as(line + ": " + r.err()).isZero();
            String out = args.get(args.indexOf("--out") + 1);
            assertThat(dir.resolve(out)).as(line).hasSameBinaryContentAs(ExamplesTest.EXAMPLES.resolve(out.substring("examples/".length())));
        }
    }

    /** formats.md shows one action of a plan, as the command it names writes it. */
    @Test
    void formatsShowsAPlanActionAsWritten() throws IOException {
        String text = Files.readString(DOCS.resolve("formats.md"));
        Matcher m = Pattern.compile("A plan action as `libra ([^`]+)`[^`]*```json\\n(.*?)```", Pattern.DOTALL).matcher(text);
        assertThat(m.find()).as("formats.md's plan action example").isTrue();
        Cli.Result r = Cli.run(local(List.of(m.group(1).split("\\s+"))));
        assertThat(r.code()).as(r.err()).isZero();
        ObjectMapper json = new ObjectMapper();
        JsonNode shown = json.readTree(m.group(2));
        List<JsonNode> same = new ArrayList<>();
        json.readTree(r.out()).path("actions").forEach(a -> {
            if (a.path("region").equals(shown.path("region"))) {
                same.add(a);
            }
        });
        assertThat(same).as("the plan's action on " + shown.path("region")).containsExactly(shown);
    }
}
