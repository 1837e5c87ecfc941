package io.libra.hbase.it;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/** Polls a condition until it holds or a deadline passes; never a blind sleep. */
final class Poll {
    private Poll() {
    }

    static void until(Duration timeout, String what, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what, last);
    }
}
