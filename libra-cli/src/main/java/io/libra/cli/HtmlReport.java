package io.libra.cli;

import io.libra.core.sim.NodeSpec;
import io.libra.core.sim.NodeTruth;
import io.libra.core.sim.RoundStats;
import io.libra.core.sim.Score;
import io.libra.core.sim.SimulationResult;
import io.libra.core.sim.StrategyRun;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** A self-contained HTML page (inline SVG, no scripts, no network) of a simulation. */
final class HtmlReport {
    private static final String[] COLORS = {"#888888", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

    private HtmlReport() {
    }

    static String render(SimulationResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>libra simulate ")
                .append(esc(r.scenario())).append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                        + "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
                        + "td:first-child,th:first-child{text-align:left}pre{background:#f6f6f6;padding:1em;overflow:auto}"
                        + "svg{margin:4px}</style></head><body>\n");
        sb.append("<h1>Simulation: ").append(esc(r.scenario())).append("</h1>\n<p>").append(esc(r.description()))
                .append(String.format(Locale.ROOT, ". %d nodes, %d regions at the start, %d rounds, seed %d.</p>%n",
                        r.nodes(), r.regions(), r.rounds(), r.seed()));
        sb.append("<h2>End state</h2>\n").append(table(r));
        sb.append("<h2>Max/Mean per round</h2>\n<p>True Max/Mean of each 60 s window, migration traffic included.</p>\n");
        sb.append(lines(r, "CPU", RoundStats::cpuMaxOverMean)).append(lines(r, "disk", RoundStats::diskMaxOverMean));
        sb.append("<h2>Per-node load, start (grey) and end (colour)</h2>\n<p>Utilisation relative to the cluster's mean"
                + " utilisation; the dashed line is the mean.</p>\n");
        for (int k = 0; k < r.runs().size(); k++) {
            StrategyRun run = r.runs().get(k);
            sb.append("<h3>").append(esc(run.strategy())).append("</h3>\n");
            sb.append(nodeBars(r.initial(), run.end(), true, color(k), run.strategy() + " CPU"));
            sb.append(nodeBars(r.initial(), run.end(), false, color(k), run.strategy() + " disk"));
        }
        sb.append("<h2>As printed</h2>\n<pre>").append(esc(SimulateCommand.tables(r))).append("</pre>\n</body></html>\n");
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
                            + "<td>%s</td><td>%.2fx</td><td>%.1f ms</td></tr>%n", esc(run.strategy()), run.end().cpuMaxOverMean(),
                    run.end().diskMaxOverMean(), run.moves(), run.splits(), run.merges(), Table.bytes(run.movedBytes()),
                    run.throughputVsNone(), run.p99Millis()));
        }
        return sb.append("</table>\n").toString();
    }

    private static String lines(SimulationResult r, String dim, ToDoubleFunction<RoundStats> f) {
        int w = 520;
        int h = 260;
        int left = 50;
        int bottom = 30;
        int rounds = r.runs().stream().mapToInt(run -> run.rounds().size()).max().orElse(1);
        double max = 1.1;
        for (StrategyRun run : r.runs()) {
            for (RoundStats s : run.rounds()) {
                max = Math.max(max, f.applyAsDouble(s));
            }
        }
        max = Math.ceil(max * 10) / 10;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\"><title>%s Max/Mean per round</title>%n",
                w + 130, h, esc(dim)));
        double plotH = h - bottom - 20;
        double plotW = w - left - 10;
        for (double y = 1.0; y <= max + 1e-9; y += 0.1 * Math.max(1, Math.round((max - 1) / 0.8))) {
            double py = 20 + plotH * (1 - (y - 1) / (max - 1));
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.1f</text>%n", left, py, w - 10, py, left - 4, py + 4, y));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s Max/Mean by round</text>%n", left, 14, esc(dim)));
        for (int k = 0; k < r.runs().size(); k++) {
            StrategyRun run = r.runs().get(k);
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < run.rounds().size(); i++) {
                double x = left + plotW * i / Math.max(1, rounds - 1);
                double y = 20 + plotH * (1 - (f.applyAsDouble(run.rounds().get(i)) - 1) / (max - 1));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, Math.min(20 + plotH, y)));
            }
            sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
                    color(k), pts.toString().trim()));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"3\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>%n", w + 5, 30 + 18 * k, color(k), w + 22, 35 + 18 * k, esc(run.strategy())));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">round</text>%n", left + (int) plotW / 2, h - 5));
        return sb.append("</svg>\n").toString();
    }

    private static String nodeBars(Score before, Score after, boolean cpu, String color, String title) {
        List<NodeSpec> specs = before.specs();
        double[] b = relative(before, cpu);
        double[] a = relative(after, cpu);
        double max = 1.2;
        for (int j = 0; j < b.length; j++) {
            max = Math.max(max, Math.max(a[j], b[j]));
        }
        int w = Math.max(320, 40 + 34 * b.length);
        int h = 200;
        double plotH = h - 50;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\"><title>%s</title>%n"
                        + "<text x=\"30\" y=\"14\" font-size=\"12\">%s</text>%n", w, h, esc(title), esc(title)));
        for (int j = 0; j < b.length; j++) {
            double x = 30 + 34 * j;
            sb.append(bar(x, b[j], max, plotH, "#bbbbbb")).append(bar(x + 13, a[j], max, plotH, color));
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\">%s</text>%n", x, h - 18, esc(specs.get(j).id())));
        }
        double meanY = 20 + plotH * (1 - 1 / max);
        sb.append(String.format(Locale.ROOT, "<line x1=\"25\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\" stroke-dasharray=\"4,3\"/>%n",
                meanY, w - 5, meanY));
        return sb.append("</svg>\n").toString();
    }

    private static String bar(double x, double v, double max, double plotH, String color) {
        double height = plotH * v / max;
        return String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"%.1f\" fill=\"%s\"><title>%.2f</title></rect>%n",
                x, 20 + plotH - height, height, color, v);
    }

    /** Each node's utilisation over the cluster's mean utilisation. */
    private static double[] relative(Score s, boolean cpu) {
        int n = s.nodes().size();
        double load = 0;
        double cap = 0;
        double[] u = new double[n];
        for (int j = 0; j < n; j++) {
            NodeTruth t = s.nodes().get(j);
            NodeSpec spec = s.specs().get(j);
            double l = cpu ? t.cpu() : t.disk();
            double c = cpu ? spec.cpuCores() : spec.diskBytesPerSec();
            load += l;
            cap += c;
            u[j] = l / c;
        }
        double mean = cap > 0 ? load / cap : 1;
        for (int j = 0; j < n; j++) {
            u[j] = mean > 0 ? u[j] / mean : 1;
        }
        return u;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
