package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `evaluate` starts from the estimate `plan` starts from, so it predicts what the plan predicted. */
class EvaluateMatchesPlanTest {
    @TempDir
    Path dir;

    @Test
    void evaluatePredictsTheSameBalanceAsThePlanOnALearntEstimate() {
        String snapshot = Path.of("..", "examples", "mixgraph-8nodes.snapshot.json").toString();
        Path plan = dir.resolve("plan.json");
        Cli.Result made = Cli.run("plan", "--snapshot", snapshot, "--out", plan.toString());
        assertThat(made.code()).as(made.err()).isZero();
        assertThat(made.out()).contains("estimation learnt");
        Cli.Result checked = Cli.run("evaluate", "--snapshot", snapshot, "--plan", plan.toString());
        assertThat(checked.code()).as(checked.err()).isZero();
        for (String row : new String[] {"cpu Max/Mean", "disk Max/Mean", "imbalance degree"}) {
            assertThat(line(checked.out(), row)).isEqualTo(line(made.out(), row));
        }
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }
}
