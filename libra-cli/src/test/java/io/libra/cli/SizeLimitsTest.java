package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sizes the simulator cannot run are refused at once with one line, and long runs show a labelled bar. */
class SizeLimitsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "simulate --regions 2000000000|libra: --regions: at most 8192, got 2000000000",
        "simulate --nodes 100000|libra: --nodes: at most the number of regions (512; every node starts with one), got 100000",
        "simulate --nodes 4 --regions 4000|libra: --regions: at most 500 per node (2000 on 4 nodes), got 4000",
        "simulate --rounds 100000|libra: --rounds: at most 1000, got 100000",
        "snapshot generate --regions 2000000000 --out x.json|libra: --regions: at most 200000, got 2000000000",
        "bench --sizes 8x20000|libra: --sizes: expected NODESxREGIONS like 8x256, with 1 to 500 regions per node and at most 200000 regions, got '8x20000'"})
    void hugeSizesAreOneLineBadInput(String args, String line) {
        Cli.Result r = Cli.run(args.split(" "));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo(line);
    }

    @Test
    void progressBarOnATerminalHasALabelAndIsClearedAtTheEnd() {
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), "simulating calm (8 nodes, 256 regions)", true, 0);
        bar.step(3, 12);
        String drawn = "\rsimulating calm (8 nodes, 256 regions) [#######                       ]  25% (3/12 windows)";
        assertThat(text.toString()).isEqualTo(drawn);
        bar.done();
        assertThat(text.toString()).isEqualTo(drawn + "\r" + " ".repeat(drawn.length()) + "\r");
    }

    @Test
    void noBarWhenStderrIsNotATerminal() {
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), "simulating", false, 0);
        bar.step(3, 12);
        bar.done();
        assertThat(text.toString()).isEmpty();
    }

    @Test
    void terminalCanBeToldByTheLauncher() {
        String before = System.getProperty(ProgressBar.TERMINAL_PROPERTY);
        try {
            System.setProperty(ProgressBar.TERMINAL_PROPERTY, "true");
            assertThat(ProgressBar.stderrIsTerminal()).isTrue();
            System.setProperty(ProgressBar.TERMINAL_PROPERTY, "false");
            assertThat(ProgressBar.stderrIsTerminal()).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(ProgressBar.TERMINAL_PROPERTY);
            } else {
                System.setProperty(ProgressBar.TERMINAL_PROPERTY, before);
            }
        }
    }
}
