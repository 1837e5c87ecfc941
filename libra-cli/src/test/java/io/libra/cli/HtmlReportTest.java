package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulate report: readable axes, the 1+λ band, action markers, bytes moved, and 64 nodes within the page. */
class HtmlReportTest {
    @TempDir
    static Path dir;
    static String html;

    @BeforeAll
    static void simulate() throws IOException {
        Path report = dir.resolve("report");
        Cli.Result r = Cli.run("simulate", "--nodes", "64", "--regions", "192", "--rounds", "3", "--strategies", "libra,1d-cpu",
                "--lambda", "0.1", "--report", report.toString());
        assertThat(r.code()).as(r.err()).isZero();
        html = Files.readString(report.resolve("index.html"));
    }

    @Test
    void selfContained() {
        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("<script").doesNotContain("https://");
    }

    @Test
    void lineChartsHaveRoundNumbersTheBandAndActionMarkers() {
        assertThat(html).contains(">round (60 s windows)</text>");
        for (String tick : new String[] {">0</text>", ">1</text>", ">2</text>", ">settle</text>"}) {
            assertThat(html).contains(tick);
        }
        // the 1+λ band on both Max/Mean charts and on every bar chart (3 strategies x 2 dimensions)
        assertThat(count("class=\"band\"")).isEqualTo(2 + 6);
        assertThat(html).contains(">1+λ</text>").contains("1+λ = 1.10");
        assertThat(html).containsPattern("<circle class=\"actions\"[^>]*><title>libra: \\d+ actions</title>");
        // lines that lie on each other: each series has its own width and dash
        assertThat(html).contains("stroke-width=\"4.5\"").contains("stroke-dasharray=\"8,4\"");
    }

    @Test
    void bytesMovedAndTheTermsAreExplained() {
        assertThat(html).contains("Bytes moved so far").contains(">GiB moved</text>");
        assertThat(html).contains("<b>throughput vs none</b>").contains("<b>P99</b>");
    }

    @Test
    void everyBarHasItsValueAndTheChartsFitThePage() {
        // 64 nodes x (start, end) x 2 dimensions x 3 strategies
        assertThat(count("<text class=\"value\"")).isEqualTo(64 * 2 * 2 * 3);
        Matcher svg = Pattern.compile("<svg [^>]*viewBox=\"0 0 (\\d+) (\\d+)\"[^>]*style=\"max-width:100%;height:auto\"").matcher(html);
        int charts = 0;
        while (svg.find()) {
            charts++;
            assertThat(Integer.parseInt(svg.group(1))).isLessThanOrEqualTo(SvgChart.WIDTH);
        }
        assertThat(charts).isEqualTo(count("<svg "));
        Matcher rect = Pattern.compile("<rect x=\"([\\d.]+)\" y=\"[\\d.]+\" width=\"([\\d.]+)\"").matcher(html);
        while (rect.find()) {
            assertThat(Double.parseDouble(rect.group(1)) + Double.parseDouble(rect.group(2))).isLessThanOrEqualTo(SvgChart.WIDTH);
        }
    }

    @Test
    void theHeaderAndAsPrintedBlockAreWhole() {
        assertThat(html).contains("64 nodes, 192 regions at the start, 3 rounds, seed 1, λ = 0.10.");
        assertThat(html).contains("pre{background:#f6f6f6;padding:1em;font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere}");
        assertThat(html).contains("<h2>As printed</h2>\n<pre>scenario paper-mixgraph");
    }

    @Test
    void niceStepsAreRound() {
        assertThat(SvgChart.niceStep(0.87, 5)).isCloseTo(0.2, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(SvgChart.niceStep(12, 12)).isEqualTo(1);
        assertThat(SvgChart.niceStep(37, 5)).isEqualTo(10);
        assertThat(SvgChart.niceStep(22, 5)).isEqualTo(5);
    }

    private static int count(String s) {
        int n = 0;
        for (int i = html.indexOf(s); i >= 0; i = html.indexOf(s, i + 1)) {
            n++;
        }
        return n;
    }
}
