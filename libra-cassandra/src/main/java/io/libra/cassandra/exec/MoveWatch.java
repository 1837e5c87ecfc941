package io.libra.cassandra.exec;

import io.libra.cassandra.jmx.RingOps;
import io.libra.cassandra.time.Sleeper;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One StorageService.move, watched rather than waited on: the blocking call runs on its own
 * thread while the node's mode and streams are polled, so a failed stream, a node that stops
 * answering, or move_timeout_seconds ends the wait at once with the reason.
 */
final class MoveWatch {
    /** Polls of a mover that does not answer before it counts as gone. */
    private static final int SILENT_POLLS = 3;
    private static final Duration POLL = Duration.ofSeconds(1);
    private final Clock clock;
    private final Sleeper sleeper;

    MoveWatch(Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Null when the move call returned; else why the move did not finish. */
    String run(RingOps mover, long to, Duration limit, BooleanSupplier closed, Consumer<String> progress)
            throws InterruptedException {
        long deadline = clock.millis() + limit.toMillis();
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
            try {
                mover.move(Long.toString(to), limit);
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, r -> {
            Thread t = new Thread(r, "libra-move-" + mover.id());
            t.setDaemon(true);
            t.start();
        });
        int silent = 0;
        String last = null;
        while (!closed.getAsBoolean()) {
            if (call.isDone()) {
                return outcome(call, mover);
            }
            if (clock.millis() > deadline) {
                return "the move of " + mover.id() + " did not finish within " + limit.toSeconds()
                        + " s (execution.move_timeout_seconds)";
            }
            try {
                String now = mover.operationMode() + ", " + mover.currentStreams() + " stream session(s)";
                silent = 0;
                if (!now.equals(last)) {
                    progress.accept(now);
                    last = now;
                }
            } catch (IOException | RuntimeException e) {
                if (++silent >= SILENT_POLLS) {
                    return mover.id() + " stopped answering during its move: " + RingGate.firstLine(e);
                }
            }
            if (!sleeper.sleep(POLL)) {
                return null;
            }
        }
        return null;
    }

    private static String outcome(CompletableFuture<Void> call, RingOps mover) {
        try {
            call.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return "move of " + mover.id() + " failed: " + RingGate.firstLine(cause);
        }
    }
}
