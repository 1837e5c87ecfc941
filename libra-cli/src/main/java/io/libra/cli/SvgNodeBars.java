package io.libra.cli;

import io.libra.core.sim.NodeSpec;
import io.libra.core.sim.NodeTruth;
import io.libra.core.sim.Score;
import java.util.List;
import java.util.Locale;

/**
 * Per-node bars for the HTML report: each node's utilisation relative to the cluster's mean, at
 * the start (grey) and the end (the strategy's colour), with a y-axis, the value on every bar, the
 * mean and the 1+λ band. Bars shrink to fit the chart's width, so 64 nodes fit the page.
 */
final class SvgNodeBars {
    private static final int HEIGHT = 260;
    private static final int LEFT = 50;
    private static final int RIGHT = 20;
    private static final int TOP = 28;
    private static final int BOTTOM = 44;

    private SvgNodeBars() {
    }

    static String render(Score before, Score after, boolean cpu, String color, String title, double lambda) {
        List<NodeSpec> specs = before.specs();
        double[] b = relative(before, cpu);
        double[] a = relative(after, cpu);
        double max = 1 + lambda;
        for (int j = 0; j < b.length; j++) {
            max = Math.max(max, Math.max(a[j], b[j]));
        }
        double step = SvgChart.niceStep(max, 5);
        double yMax = step * Math.ceil(max / step + 0.15);
        double plotW = SvgChart.WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        double slot = plotW / b.length;
        double barW = Math.min(22, slot * 0.42);
        StringBuilder sb = new StringBuilder(SvgChart.open(SvgChart.WIDTH, HEIGHT, title));
        sb.append(SvgChart.text(LEFT, 16, 13, "start", "bold", title + ": start (grey) and end, relative to the mean"));
        double bandTop = y(1 + lambda, yMax, plotH);
        sb.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#2ca02c\" "
                + "fill-opacity=\"0.12\"/>%n", LEFT, bandTop, plotW, y(1, yMax, plotH) - bandTop));
        for (double v = 0; v <= yMax + step / 1000; v += step) {
            double y = y(v, yMax, plotH);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>%n",
                    LEFT, y, LEFT + plotW, y));
            sb.append(SvgChart.text(LEFT - 6, y + 4, 11, "end", "normal", String.format(Locale.ROOT, "%.1f", v)));
        }
        int valueFont = (int) Math.max(6, Math.min(10, barW * 0.9));
        for (int j = 0; j < b.length; j++) {
            double x = LEFT + slot * j + (slot - 2 * barW) / 2;
            sb.append(bar(x, barW, b[j], yMax, plotH, "#bbbbbb", valueFont));
            sb.append(bar(x + barW, barW, a[j], yMax, plotH, color, valueFont));
            double lx = x + barW;
            double ly = TOP + plotH + 12;
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"end\" "
                    + "transform=\"rotate(-60 %.1f %.1f)\">%s</text>%n", lx, ly, Math.min(11, valueFont + 1), lx, ly,
                    SvgChart.esc(specs.get(j).id())));
        }
        double meanY = y(1, yMax, plotH);
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                + "stroke-dasharray=\"4,3\"/>%n", LEFT, meanY, LEFT + plotW, meanY));
        sb.append(SvgChart.text(LEFT + plotW, 16, 11, "end", "normal",
                String.format(Locale.ROOT, "mean (dashed) to 1+λ = %.2f", 1 + lambda)));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\"/>%n",
                LEFT, TOP, LEFT, TOP + plotH));
        return sb.append("</svg>\n").toString();
    }

    private static double y(double v, double yMax, double plotH) {
        return TOP + plotH * (1 - Math.min(v, yMax) / yMax);
    }

    private static String bar(double x, double w, double v, double yMax, double plotH, String color, int font) {
        double top = y(v, yMax, plotH);
        double cx = x + w / 2;
        return String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%.2f</title></rect>%n"
                        + "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" transform=\"rotate(-90 %.1f %.1f)\">%.2f</text>%n",
                x, top, Math.max(0.5, w - 1), TOP + plotH - top, color, v, cx + font / 3.0, top - 3, font, cx + font / 3.0, top - 3, v);
    }

    /** Each node's utilisation over the cluster's mean utilisation. */
    static double[] relative(Score s, boolean cpu) {
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
}
