package io.libra.it;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/** Polls a condition until it holds or a deadline passes: the only way the ITs wait, never a blind sleep. */
public final class Poll {
    private static final Duration INTERVAL = Duration.ofMillis(200);

    private Poll() {
    }

    /**
     * Returns once {@code condition} answers true. A condition that throws counts as not yet; on timeout the
     * last exception is the cause, because it usually says why the wait failed.
     */
    public static void until(Duration timeout, String what, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            // Checked after the call so a slow last attempt on a loaded machine still counts.
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what, last);
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
    }
}
