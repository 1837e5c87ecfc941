package io.libra.cli;

import io.libra.core.sim.RoundStats;
import io.libra.core.sim.SimulationResult;
import io.libra.core.sim.StrategyRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** A self-contained HTML page (inline SVG, no scripts, no network) of a simulation. */
final class HtmlReport {
    private static final String[] COLORS = {"#888888", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final double GIB = 1024.0 * 1024 * 1024;

    private HtmlReport() {
    }

    static String render(SimulationResult r, double lambda) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>libra simulate ")
                .append(SvgChart.esc(r.scenario())).append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1000px}"
                        + "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
                        + "td:first-child,th:first-child{text-align:left}.side{display:flex;gap:1.5em;align-items:flex-start}"
                        + ".side table{flex:none;font-size:0.9em}.side aside{flex:1;min-width:160px;font-size:0.85em;color:#333}"
                        + "pre{background:#f6f6f6;padding:1em;font-size:11px;white-space:pre-wrap;overflow-wrap:anywhere}"
                        + "svg{display:block;margin:8px 0}</style></head><body>\n");
        sb.append("<h1>Simulation: ").append(SvgChart.esc(r.scenario())).append("</h1>\n<p>").append(SvgChart.esc(r.description()))
                .append(String.format(Locale.ROOT, ". %d nodes, %d regions at the start, %d rounds, seed %d, λ = %s.</p>%n",
                        r.nodes(), r.regions(), r.rounds(), r.seed(), Table.f2(lambda)));
        sb.append("<h2>End state</h2>\n<div class=\"side\">").append(table(r)).append(explanation()).append("</div>\n");
        sb.append("<h2>Max/Mean per round</h2>\n<p>True Max/Mean of each 60 s window, migration traffic included. "
                + "Dots mark rounds in which a strategy carried out actions, with their count; the green band is 1 to 1+λ.</p>\n");
        sb.append(maxOverMean(r, "CPU", RoundStats::cpuMaxOverMean, lambda))
                .append(maxOverMean(r, "disk", RoundStats::diskMaxOverMean, lambda));
        sb.append("<h2>Bytes moved</h2>\n<p>Data copied by moves, summed from the first round.</p>\n").append(bytesMoved(r));
        sb.append("<h2>Per-node load</h2>\n<p>Each node's utilisation relative to the cluster's mean utilisation, at the start"
                + " (grey) and at the end (colour); the dashed line is the mean, the green band 1 to 1+λ.</p>\n");
        for (int k = 0; k < r.runs().size(); k++) {
            StrategyRun run = r.runs().get(k);
            sb.append("<h3>").append(SvgChart.esc(run.strategy())).append("</h3>\n");
            sb.append(SvgNodeBars.render(r.initial(), run.end(), true, color(k), run.strategy() + " CPU", lambda));
            sb.append(SvgNodeBars.render(r.initial(), run.end(), false, color(k), run.strategy() + " disk", lambda));
        }
        sb.append("<h2>As printed</h2>\n<pre>").append(SvgChart.esc(SimulateCommand.tables(r))).append("</pre>\n</body></html>\n");
        return sb.toString();
    }

    private static String color(int k) {
        return COLORS[k % COLORS.length];
    }

    private static String table(SimulationResult r) {
        StringBuilder sb = new StringBuilder("<table><tr><th>strategy</th><th>cpu Max/Mean</th><th>disk Max/Mean</th>"
                + "<th>moves</th><th>splits</th><th>merges</th><th>moved</th><th>throughput vs none</th><th>P99</th></tr>\n");
        for (StrategyRun run : r.runs()) {
            sb.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.3f</td><td>%.3f</td><td>%d</td><td>%d</td><td>%d</td>"
                            + "<td>%s</td><td>%.2fx</td><td>%.1f ms</td></tr>%n", SvgChart.esc(run.strategy()), run.end().cpuMaxOverMean(),
                    run.end().diskMaxOverMean(), run.moves(), run.splits(), run.merges(), Table.bytes(run.movedBytes()),
                    run.throughputVsNone(), run.p99Millis()));
        }
        return sb.append("</table>\n").toString();
    }

    private static String explanation() {
        return "<aside><p><b>Max/Mean</b>: the busiest node's load over the mean, per dimension, in the quiet window after "
                + "every plan was carried out (1.00 = perfectly even).</p>"
                + "<p><b>throughput vs none</b>: how far the offered load can grow before the busiest CPU or disk saturates, "
                + "relative to never balancing (<code>none</code>). 1.50x means 50% more requests before the first node "
                + "is full.</p><p><b>P99</b>: the 99th-percentile request latency at the load that puts <code>none</code>'s "
                + "busiest resource at 90%, from an M/M/1 model per node resource (docs/cli.md).</p></aside>";
    }

    private static List<String> roundLabels(SimulationResult r) {
        int points = r.runs().stream().mapToInt(run -> run.rounds().size()).max().orElse(0);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            labels.add(i < r.rounds() ? Integer.toString(i) : "settle");
        }
        return labels;
    }

    private static String maxOverMean(SimulationResult r, String dim, ToDoubleFunction<RoundStats> f, double lambda) {
        List<SvgChart.Series> series = new ArrayList<>();
        for (int k = 0; k < r.runs().size(); k++) {
            List<RoundStats> rounds = r.runs().get(k).rounds();
            double[] v = new double[rounds.size()];
            int[] actions = new int[rounds.size()];
            for (int i = 0; i < rounds.size(); i++) {
                v[i] = f.applyAsDouble(rounds.get(i));
                actions[i] = rounds.get(i).moves() + rounds.get(i).splits() + rounds.get(i).merges();
            }
            series.add(new SvgChart.Series(r.runs().get(k).strategy(), color(k), v, actions));
        }
        return SvgChart.lines(dim + " Max/Mean per round", dim + " Max/Mean", roundLabels(r), series, 1.0,
                new SvgChart.Band(1.0, 1 + lambda, "1+λ"), v -> String.format(Locale.ROOT, "%.2f", v));
    }

    private static String bytesMoved(SimulationResult r) {
        List<SvgChart.Series> series = new ArrayList<>();
        for (int k = 0; k < r.runs().size(); k++) {
            List<RoundStats> rounds = r.runs().get(k).rounds();
            double[] v = new double[rounds.size()];
            int[] actions = new int[rounds.size()];
            double sum = 0;
            for (int i = 0; i < rounds.size(); i++) {
                sum += rounds.get(i).movedBytes();
                v[i] = sum / GIB;
                actions[i] = rounds.get(i).moves();
            }
            series.add(new SvgChart.Series(r.runs().get(k).strategy(), color(k), v, actions));
        }
        return SvgChart.lines("Bytes moved so far", "GiB moved", roundLabels(r), series, 0, null,
                v -> v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v));
    }
}
