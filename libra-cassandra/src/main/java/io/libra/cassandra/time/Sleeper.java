package io.libra.cassandra.time;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits between polls (JMX has no completion callbacks for a move, streaming or cleanup, and a
 * window is a length of time). Injected so that tests advance a fake clock instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {
    /** Waits {@code d}; false when told to stop before it passed. */
    boolean sleep(Duration d) throws InterruptedException;

    /** Real time, cut short when {@code stop} opens. */
    static Sleeper until(CountDownLatch stop) {
        return d -> !stop.await(d.toMillis(), TimeUnit.MILLISECONDS);
    }
}
