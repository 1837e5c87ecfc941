package io.libra.it.cassandra;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes: the only way this IT waits. */
final class Poll {
    private Poll() {
    }

    static void until(String what, Duration timeout, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Boolean ok;
            try {
                ok = condition.get();
            } catch (RuntimeException e) {
                ok = false;
            }
            if (Boolean.TRUE.equals(ok)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
        }
    }
}
