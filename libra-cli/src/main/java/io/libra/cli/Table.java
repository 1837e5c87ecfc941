package io.libra.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plain-text table with aligned columns; numeric-looking cells are right-aligned. */
final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final String[] header;

    Table(String... header) {
        this.header = header;
    }

    Table row(Object... cells) {
        String[] r = new String[header.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = i < cells.length && cells[i] != null ? cells[i].toString() : "";
        }
        rows.add(r);
        return this;
    }

    String render() {
        int[] w = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            w[i] = header[i].length();
            for (String[] r : rows) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, w);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append(rule).append('\n');
        rows.forEach(r -> line(sb, r, w));
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] w) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i];
            String pad = " ".repeat(w[i] - c.length());
            l.append(i == 0 ? "" : "  ").append(numeric(c) ? pad + c : c + (i == cells.length - 1 ? "" : pad));
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static boolean numeric(String s) {
        return !s.isEmpty() && s.matches("[-+]?[0-9.,]+( ?[%a-zA-Z/]{0,4})?");
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v * 100);
    }

    /** Bytes in binary units: 1.5 GiB. */
    static String bytes(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (Math.abs(b) >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", b) : String.format(Locale.ROOT, "%.1f %s", b, units[u]);
    }

    static String millis(double ms) {
        return ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : String.format(Locale.ROOT, "%.1f ms", ms);
    }

    /** A horizontal bar of {@code width} characters for value/max, with a mark at the mean. */
    static String bar(double value, double max, double mean, int width) {
        int len = max > 0 ? (int) Math.round(Math.min(1, value / max) * width) : 0;
        int meanAt = max > 0 ? (int) Math.round(Math.min(1, mean / max) * width) : -1;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < width; i++) {
            sb.append(i < len ? '#' : i == meanAt ? '|' : '.');
        }
        return sb.toString();
    }
}
