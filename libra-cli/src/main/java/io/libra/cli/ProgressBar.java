package io.libra.cli;

import io.libra.core.sim.Simulator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A labelled progress bar on stderr, drawn only when stderr is a terminal (stdout may be
 * redirected) and once a run has taken more than a second.
 */
final class ProgressBar implements Simulator.Progress {
    /** Set by bin/libra from the shell's {@code [ -t 2 ]}; otherwise asked of the OS. */
    static final String TERMINAL_PROPERTY = "libra.stderr.terminal";
    private static final long DELAY_NANOS = 1_000_000_000L;
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final String label;
    private final boolean terminal;
    private final long delayNanos;
    private final long start = System.nanoTime();
    private int drawn;

    ProgressBar(PrintWriter err, String label) {
        this(err, label, stderrIsTerminal(), DELAY_NANOS);
    }

    ProgressBar(PrintWriter err, String label, boolean terminal, long delayNanos) {
        this.err = err;
        this.label = label;
        this.terminal = terminal;
        this.delayNanos = delayNanos;
    }

    @Override
    public void step(int done, int total) {
        if (!terminal || System.nanoTime() - start < delayNanos || total <= 0) {
            return;
        }
        int filled = (int) ((long) WIDTH * done / total);
        String line = String.format(Locale.ROOT, "\r%s [%s%s] %3d%% (%d/%d windows)", label, "#".repeat(filled),
                " ".repeat(WIDTH - filled), 100L * done / total, done, total);
        err.print(line);
        err.flush();
        drawn = Math.max(drawn, line.length());
    }

    void done() {
        if (drawn > 0) {
            err.print("\r" + " ".repeat(drawn) + "\r");
            err.flush();
        }
    }

    /**
     * Whether fd 2 is a terminal. Java 17's {@code System.console()} is null as soon as stdout is
     * redirected, so on Linux the answer comes from where /proc/self/fd/2 points.
     */
    static boolean stderrIsTerminal() {
        String told = System.getProperty(TERMINAL_PROPERTY);
        if (told != null && !told.isBlank()) {
            return Boolean.parseBoolean(told);
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return System.console() != null;
        }
    }
}
