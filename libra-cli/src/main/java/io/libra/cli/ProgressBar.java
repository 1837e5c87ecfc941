package io.libra.cli;

import io.libra.core.sim.Simulator;
import java.io.PrintWriter;
import java.util.Locale;

/** A progress bar on the terminal's stderr, shown only once a run has taken more than a second. */
final class ProgressBar implements Simulator.Progress {
    private static final long DELAY_NANOS = 1_000_000_000L;
    private final PrintWriter err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private boolean shown;

    ProgressBar(PrintWriter err) {
        this.err = err;
        this.terminal = System.console() != null;
    }

    @Override
    public void step(int done, int total) {
        if (!terminal || System.nanoTime() - start < DELAY_NANOS || total <= 0) {
            return;
        }
        int width = 40;
        int filled = (int) ((long) width * done / total);
        err.printf(Locale.ROOT, "\r[%s%s] %3d%% ", "#".repeat(filled), " ".repeat(width - filled), 100L * done / total);
        err.flush();
        shown = true;
    }

    void done() {
        if (shown) {
            err.print("\r" + " ".repeat(50) + "\r");
            err.flush();
        }
    }
}
