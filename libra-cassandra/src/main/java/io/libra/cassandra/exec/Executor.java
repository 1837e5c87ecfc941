package io.libra.cassandra.exec;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.RingOps;
import io.libra.cassandra.time.Sleeper;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Runs one rebalance job at a time, one {@code StorageService.move} at a time, each only
 * through the {@link RingGate}; waits for the ring to settle, cleans up the nodes that lost
 * ranges, and journals every step. A node down between moves pauses the job until it is back
 * (or move_timeout_seconds passes); a move that fails aborts the job.
 */
public final class Executor implements AutoCloseable {
    private static final Duration POLL = Duration.ofSeconds(1);
    private final Map<String, RingOps> nodes = new LinkedHashMap<>();
    private final SidecarConfig config;
    private final Journal journal;
    private final Consumer<Job> onMoveDone;
    private final Object lock = new Object();
    private Job job;
    private boolean paused;
    private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);
    private final Clock clock;
    private final Sleeper sleeper;
    private Thread worker;

    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone) {
        this(nodes, config, journal, onMoveDone, Clock.systemUTC(), null);
    }

    /** With the clock that stamps events and deadlines and the sleeper that paces polls (null: real time). */
    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone,
                    Clock clock, Sleeper sleeper) {
        nodes.forEach(n -> this.nodes.put(n.id(), n));
        this.config = config;
        this.journal = journal;
        this.onMoveDone = onMoveDone;
        this.clock = clock;
        this.sleeper = sleeper != null ? sleeper : Sleeper.until(closing);
    }

    public Journal journal() {
        return journal;
    }

    /** Picks up the journal's unfinished job: resumed or abandoned per execution.on_restart. */
    public void recover() {
        Optional<Job> saved = journal.read();
        if (saved.isEmpty() || saved.get().finished()) {
            synchronized (lock) {
                job = saved.orElse(null);
            }
            return;
        }
        Job j = saved.get();
        synchronized (lock) {
            job = j;
            if ("abandon".equals(config.execution.onRestart)) {
                j.state = Job.State.ABANDONED;
                event(j, "daemon restarted: job abandoned (execution.on_restart: abandon)");
                return;
            }
            event(j, "daemon restarted: resuming the job");
            start(j);
        }
    }

    /**
     * Starts a job for a plan's moveToken actions; fails with IllegalStateException when one is
     * still running, IllegalArgumentException when the plan holds other actions.
     */
    public Job submit(Plan plan, boolean dryRun) {
        synchronized (lock) {
            if (job != null && !job.finished()) {
                throw new IllegalStateException("job " + job.id + " is still " + job.state.name().toLowerCase(java.util.Locale.ROOT));
            }
            Job j = new Job();
            j.id = UUID.randomUUID().toString();
            j.createdAt = clock.instant().toString();
            j.dryRun = dryRun;
            for (Action a : plan.actions()) {
                if (!(a instanceof MoveTokenAction m)) {
                    throw new IllegalArgumentException("a ring job runs moveToken actions only, got " + a.type());
                }
                Job.Move jm = new Job.Move();
                jm.node = m.node();
                jm.fromToken = m.fromToken();
                jm.toToken = m.toToken();
                jm.bytes = m.sizeBytes();
                jm.reason = m.reason() == null ? null : m.reason().note();
                j.moves.add(jm);
            }
            job = j;
            event(j, (dryRun ? "dry run of " : "running ") + j.moves.size() + " move(s)");
            start(j);
            return j;
        }
    }

    private void start(Job j) {
        worker = new Thread(() -> run(j), "libra-executor");
        worker.setDaemon(true);
        worker.start();
    }

    public Optional<Job> job(String id) {
        synchronized (lock) {
            return job != null && job.id.equals(id) ? Optional.of(copy(job)) : Optional.empty();
        }
    }

    public Optional<Job> current() {
        synchronized (lock) {
            return Optional.ofNullable(job).map(Executor::copy);
        }
    }

    public boolean busy() {
        synchronized (lock) {
            return job != null && !job.finished();
        }
    }

    public void pause() {
        synchronized (lock) {
            paused = true;
        }
    }

    public void resume() {
        synchronized (lock) {
            paused = false;
        }
    }

    public boolean paused() {
        synchronized (lock) {
            return paused;
        }
    }

    private static Job copy(Job j) {
        return Journal.JSON.convertValue(j, Job.class);
    }

    private void run(Job j) {
        try {
            for (Job.Move m : j.moves) {
                if (closed()) {
                    return;
                }
                if (m.state == Job.MoveState.DONE || m.state == Job.MoveState.DRY_RUN || m.state == Job.MoveState.SKIPPED) {
                    continue;
                }
                if (j.dryRun) {
                    update(j, () -> m.state = Job.MoveState.DRY_RUN);
                    continue;
                }
                if (!awaitSafe(j) || !runMove(j, m)) {
                    return;
                }
            }
            update(j, () -> {
                j.state = Job.State.DONE;
                j.detail = j.dryRun ? "dry run: nothing was moved" : "all moves done";
                j.events.add(clock.instant() + " job done");
            });
        } catch (RuntimeException e) {
            fail(j, null, "executor error: " + RingGate.firstLine(e));
        }
    }

    /** Waits until the gate opens and the operator has not paused; false when the job ended instead. */
    private boolean awaitSafe(Job j) {
        long deadline = clock.millis() + config.execution.moveTimeoutSeconds * 1000L;
        String last = null;
        while (!closed()) {
            String why;
            synchronized (lock) {
                why = paused ? "paused by operator" : null;
            }
            if (why == null) {
                why = RingGate.check(nodes.values());
            }
            if (why == null) {
                if (j.state != Job.State.RUNNING) {
                    update(j, () -> {
                        j.state = Job.State.RUNNING;
                        j.detail = "running";
                    });
                    event(j, "resumed");
                }
                return true;
            }
            if (!why.equals(last)) {
                String reason = why;
                update(j, () -> {
                    j.state = Job.State.PAUSED;
                    j.detail = "waiting: " + reason;
                });
                event(j, "paused: " + why);
                last = why;
            }
            if (clock.millis() > deadline && !why.equals("paused by operator")) {
                fail(j, null, "ring not safe for " + config.execution.moveTimeoutSeconds + " s: " + why);
                return false;
            }
            if (!pauseQuietly()) {
                return false;
            }
        }
        return false;
    }

    private boolean runMove(Job j, Job.Move m) {
        RingOps mover = nodes.get(m.node);
        if (mover == null) {
            fail(j, m, "node " + m.node + " is not configured");
            return false;
        }
        long from = Tokens.fromKey(m.fromToken);
        long to = Tokens.fromKey(m.toToken);
        try {
            Map<String, Long> before = tokens();
            long current = before.get(m.node);
            if (current != to) {
                if (current != from) {
                    fail(j, m, "ring changed since planning: " + m.node + " owns " + Tokens.toKey(current)
                            + ", the plan expected " + m.fromToken);
                    return false;
                }
                for (RingOps n : nodes.values()) {
                    n.setStreamThroughput(config.execution.streamThroughputMibPerSec);
                }
                update(j, () -> m.state = Job.MoveState.MOVING);
                event(j, "moving " + m.node + " " + m.fromToken + " -> " + m.toToken);
                mover.move(Long.toString(to), java.time.Duration.ofSeconds(config.execution.moveTimeoutSeconds));
            } else {
                before.put(m.node, from);
            }
            if (!awaitSettled(j, m, to)) {
                return false;
            }
            update(j, () -> m.state = Job.MoveState.CLEANUP);
            cleanup(j, m, before, to);
            update(j, () -> m.state = Job.MoveState.DONE);
            event(j, "moved " + m.node + " to " + m.toToken);
            onMoveDone.accept(j);
            return true;
        } catch (IOException | RuntimeException e) {
            fail(j, m, "move of " + m.node + " failed: " + RingGate.firstLine(e));
            return false;
        }
    }

    /** Every node sees the new token, everyone NORMAL, no streams. */
    private boolean awaitSettled(Job j, Job.Move m, long to) throws IOException {
        long deadline = clock.millis() + config.execution.moveTimeoutSeconds * 1000L;
        String target = Long.toString(to);
        while (!closed()) {
            boolean seen = true;
            for (RingOps n : nodes.values()) {
                try {
                    seen &= n.tokenToEndpoint().containsKey(target);
                } catch (IOException e) {
                    fail(j, m, "node " + n.id() + " failed while " + m.node + " moved: " + RingGate.firstLine(e));
                    return false;
                }
            }
            if (seen && RingGate.check(nodes.values()) == null) {
                return true;
            }
            if (clock.millis() > deadline) {
                fail(j, m, "ring did not settle within " + config.execution.moveTimeoutSeconds + " s after the move");
                return false;
            }
            if (!pauseQuietly()) {
                return false;
            }
        }
        return false;
    }

    private void cleanup(Job j, Job.Move m, Map<String, Long> before, long to) throws IOException {
        if (!config.execution.cleanup) {
            return;
        }
        RingOps any = nodes.get(m.node);
        for (String ks : any.keyspaces()) {
            int rf = any.replicationFactor(ks);
            for (String node : LostRanges.nodes(before, m.node, to, rf)) {
                nodes.get(node).cleanup(ks, java.time.Duration.ofSeconds(config.execution.moveTimeoutSeconds));
                String done = node + ":" + ks;
                update(j, () -> m.cleanedUp.add(done));
            }
        }
    }

    private Map<String, Long> tokens() throws IOException {
        Map<String, Long> out = new HashMap<>();
        for (RingOps n : nodes.values()) {
            List<String> t = n.tokens();
            if (t.size() != 1) {
                throw new IOException("node " + n.id() + " has " + t.size() + " tokens; moves need num_tokens: 1");
            }
            out.put(n.id(), Long.parseLong(t.get(0)));
        }
        return out;
    }

    private void fail(Job j, Job.Move m, String why) {
        update(j, () -> {
            if (m != null) {
                m.state = Job.MoveState.FAILED;
                m.error = why;
            }
            j.state = Job.State.FAILED;
            j.detail = why;
            // in the same update: once the state is final, the job (and the journal) must not change
            j.events.add(clock.instant() + " aborted: " + why);
        });
    }

    /** Paces the polls of a node's JMX state: a move, streaming and cleanup have no completion callback over JMX. */
    private boolean pauseQuietly() {
        try {
            return sleeper.sleep(POLL) && !closed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean closed() {
        return closing.getCount() == 0;
    }

    private void update(Job j, Runnable change) {
        synchronized (lock) {
            change.run();
            journal.write(j);
        }
    }

    private void event(Job j, String what) {
        update(j, () -> j.events.add(clock.instant() + " " + what));
    }

    @Override
    public void close() {
        closing.countDown();
        Thread w = worker;
        if (w != null) {
            w.interrupt();
        }
    }
}
