package io.libra.it;

import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/** Polls a condition with a deadline (10 s). */
public final class PollForTest {
    private PollForTest() {
    }

    public static void until(Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Boolean.TRUE.equals(condition.call())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            LockSupport.parkNanos(100_000_000L);
        }
    }
}
