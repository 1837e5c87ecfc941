package io.libra.cli;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * Inline SVG line charts for the HTML report: round-numbered axes, an optional shaded band (the
 * 1+λ tolerance), one line per series in its own width and dash so lines that coincide stay
 * visible, and a marker with the action count wherever a series acted.
 */
final class SvgChart {
    static final int WIDTH = 960;
    private static final int HEIGHT = 300;
    private static final int LEFT = 60;
    private static final int RIGHT = 130;
    private static final int TOP = 28;
    private static final int BOTTOM = 40;
    private static final String[] DASHES = {"", "8,4", "2,3", "10,3,2,3", "5,5", "1,4", "12,6"};

    /** One line: a value per x position, and the actions carried out there (0 = no marker). */
    record Series(String name, String color, double[] values, int[] actions) {
    }

    /** A shaded horizontal band with its label, e.g. 1 to 1+λ. */
    record Band(double from, double to, String label) {
    }

    private SvgChart() {
    }

    static String lines(String title, String yLabel, List<String> xLabels, List<Series> series, double yMin, Band band,
                        DoubleFunction<String> tick) {
        double max = yMin;
        for (Series s : series) {
            for (double v : s.values()) {
                max = Math.max(max, v);
            }
        }
        if (band != null) {
            max = Math.max(max, band.to());
        }
        double step = niceStep(Math.max(max - yMin, 1e-9), 5);
        double yMax = yMin + step * Math.ceil((max - yMin) / step + 1e-9);
        Frame f = new Frame(yMin, yMax, xLabels.size());
        StringBuilder sb = new StringBuilder(open(WIDTH, HEIGHT, title));
        sb.append(text(LEFT, 16, 13, "start", "bold", title));
        if (band != null) {
            double y1 = f.y(Math.min(band.to(), yMax));
            double y0 = f.y(band.from());
            sb.append(String.format(Locale.ROOT, "<rect class=\"band\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    + "fill=\"#2ca02c\" fill-opacity=\"0.12\"/>%n", LEFT, y1, f.plotW(), y0 - y1));
            // labelled just right of the plot, level with the band, where no line can cover it
            sb.append(text(LEFT + f.plotW() + 4, (y0 + y1) / 2 + 4, 11, "start", "normal", band.label()));
        }
        yAxis(sb, f, step, tick, yLabel);
        xAxis(sb, f, xLabels);
        for (int k = 0; k < series.size(); k++) {
            series(sb, f, series.get(k), k, series.size());
        }
        return sb.append("</svg>\n").toString();
    }

    private static void series(StringBuilder sb, Frame f, Series s, int k, int count) {
        StringBuilder pts = new StringBuilder();
        for (int i = 0; i < s.values().length; i++) {
            pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", f.x(i), f.y(s.values()[i])));
        }
        // earlier series are drawn wider, so a later line lying on top of one leaves its edges visible
        double width = 1.5 + 3.0 * (count - 1 - k) / Math.max(1, count - 1);
        String dash = DASHES[k % DASHES.length];
        sb.append(String.format(Locale.ROOT, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s "
                + "stroke-opacity=\"0.9\" points=\"%s\"><title>%s</title></polyline>%n", s.color(), width,
                dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"", pts.toString().trim(), esc(s.name())));
        for (int i = 0; i < s.actions().length; i++) {
            if (s.actions()[i] > 0) {
                double x = f.x(i);
                double y = f.y(s.values()[i]);
                sb.append(String.format(Locale.ROOT, "<circle class=\"actions\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\">"
                        + "<title>%s: %d actions</title></circle>%n", x, y, s.color(), esc(s.name()), s.actions()[i]));
                sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\" text-anchor=\"middle\">"
                        + "%d</text>%n", x, y - 6 - 9 * (k % 2), s.color(), s.actions()[i]));
            }
        }
        double ly = TOP + 6 + 18 * k;
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>%n",
                WIDTH - RIGHT + 10, ly, WIDTH - RIGHT + 34, ly, s.color(), width,
                dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\""));
        sb.append(text(WIDTH - RIGHT + 40, ly + 4, 12, "start", "normal", s.name()));
    }

    private static void yAxis(StringBuilder sb, Frame f, double step, DoubleFunction<String> tick, String label) {
        for (double v = f.yMin(); v <= f.yMax() + step / 1000; v += step) {
            double y = f.y(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>%n",
                    LEFT, y, LEFT + f.plotW(), y));
            sb.append(text(LEFT - 6, y + 4, 11, "end", "normal", tick.apply(v)));
        }
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\"/>%n",
                LEFT, TOP, LEFT, f.y(f.yMin())));
        sb.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 14 %.1f)\">%s</text>%n", TOP + f.plotH() / 2, TOP + f.plotH() / 2, esc(label)));
    }

    private static void xAxis(StringBuilder sb, Frame f, List<String> labels) {
        double y0 = f.y(f.yMin());
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>%n",
                LEFT, y0, LEFT + f.plotW(), y0));
        int every = (int) Math.max(1, niceStep(labels.size(), 12));
        for (int i = 0; i < labels.size(); i++) {
            if (i % every == 0 || i == labels.size() - 1) {
                sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>%n",
                        f.x(i), y0, f.x(i), y0 + 4));
                sb.append(text(f.x(i), y0 + 16, 11, "middle", "normal", labels.get(i)));
            }
        }
        sb.append(text(LEFT + f.plotW() / 2, HEIGHT - 6, 11, "middle", "normal", "round (60 s windows)"));
    }

    /** 1, 2 or 5 times a power of ten, giving about {@code ticks} steps over {@code range}. */
    static double niceStep(double range, int ticks) {
        double raw = range / ticks;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double norm = raw / mag;
        return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    }

    static String open(int w, int h, String title) {
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                + "style=\"max-width:100%%;height:auto\" role=\"img\" font-family=\"sans-serif\"><title>%s</title>%n", w, h, w, h, esc(title));
    }

    static String text(double x, double y, int size, String anchor, String weight, String s) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>%n",
                x, y, size, anchor, weight, esc(s));
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** The plot area and its scales. */
    private record Frame(double yMin, double yMax, int points) {
        double plotW() {
            return WIDTH - LEFT - RIGHT;
        }

        double plotH() {
            return HEIGHT - TOP - BOTTOM;
        }

        double x(int i) {
            return LEFT + plotW() * (points <= 1 ? 0.5 : (double) i / (points - 1));
        }

        double y(double v) {
            return TOP + plotH() * (1 - (Math.min(Math.max(v, yMin), yMax) - yMin) / (yMax - yMin));
        }
    }
}
