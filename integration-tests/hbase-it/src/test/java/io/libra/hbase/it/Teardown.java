package io.libra.hbase.it;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What an IT class started, closed in reverse order from its {@code @AfterAll}: the workload
 * stops before the cluster its clients talk to is shut down. Closing empties it, so a test that
 * restarts its cluster closes it and adds the new parts.
 */
final class Teardown implements AutoCloseable {
    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    /** Registers {@code part} to be closed before everything registered earlier; returns it. */
    <T extends AutoCloseable> T add(T part) {
        started.push(part);
        return part;
    }

    /** Closes every part, newest first, even when one fails; the first failure is thrown with the others suppressed. */
    @Override
    public void close() throws Exception {
        Exception first = null;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
