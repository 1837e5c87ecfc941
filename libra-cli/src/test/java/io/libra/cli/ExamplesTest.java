package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshots shipped in examples/ (and used in the docs) stay valid, small, and plannable. */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path dir;

    static List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".snapshot.json")).sorted().toList();
        }
    }

    @Test
    void everyExamplePlansExplainsAndEvaluates() throws IOException {
        List<Path> all = snapshots();
        assertThat(all).extracting(p -> p.getFileName().toString()).contains("mixgraph-8nodes.snapshot.json",
                "heterogeneous-6nodes.snapshot.json", "ycsb-a-4nodes.snapshot.json");
        for (Path snap : all) {
            assertThat(Files.size(snap)).as(snap + " is small").isLessThan(100_000);
            Path plan = dir.resolve(snap.getFileName() + ".plan.json");
            Cli.Result made = Cli.run("plan", "--snapshot", snap.toString(), "--out", plan.toString());
            assertThat(made.code()).as(made.err()).isZero();
            assertThat(made.out()).startsWith("strategy libra, status planned");
            Cli.Result explained = Cli.run("explain", "--snapshot", snap.toString(), "--plan", plan.toString());
            assertThat(explained.code()).isZero();
            assertThat(explained.err()).isEmpty();
            assertThat(Cli.run("evaluate", "--snapshot", snap.toString(), "--plan", plan.toString()).out()).contains(" fits ");
        }
    }

    @Test
    void theHeterogeneousExampleCarriesCapacities() throws IOException {
        assertThat(Files.readString(EXAMPLES.resolve("heterogeneous-6nodes.snapshot.json"))).contains("\"cpuCapacity\"");
    }
}
