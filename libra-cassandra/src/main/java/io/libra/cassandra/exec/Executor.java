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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one rebalance job at a time, one {@code StorageService.move} at a time, each only through
 * the {@link RingGate} and the {@link Preflight}; watches each move ({@link MoveWatch}); records
 * before each move which nodes will hold ranges they no longer own, and cleans them once the ring
 * is NORMAL, on every path ({@link Janitor}); caps streaming for the job and restores the
 * operator's caps after it ({@link Throughput}). A node down between moves pauses the job until
 * it is back (or move_timeout_seconds passes); a failed move fails the job at once, and a node it
 * left MOVING is reported with the remedy. Every step is journaled.
 */
public final class Executor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Executor.class);
    private static final Duration POLL = Duration.ofSeconds(1);
    private final Map<String, RingOps> nodes = new LinkedHashMap<>();
    private final SidecarConfig config;
    private final JobBook book;
    private final Consumer<Job> onMoveDone;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Clock clock;
    private final Sleeper sleeper;
    private final Janitor janitor;
    private final MoveWatch watch;
    private final Object lock;
    private final Lease lease;
    private volatile Consumer<Job> onJobEnd = j -> { };
    private Job job;
    private boolean paused;
    private Thread worker;

    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone) {
        this(nodes, config, journal, onMoveDone, Lease.NONE);
    }

    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone,
                    Lease lease) {
        this(nodes, config, journal, onMoveDone, Clock.systemUTC(), null, lease);
    }

    /** With the clock that stamps events and deadlines and the sleeper that paces polls (null: real time), no lease. */
    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone,
                    Clock clock, Sleeper sleeper) {
        this(nodes, config, journal, onMoveDone, clock, sleeper, Lease.NONE);
    }

    /** With the lease a job must hold to move tokens ({@link Lease#NONE}: this sidecar alone). */
    public Executor(List<? extends RingOps> nodes, SidecarConfig config, Journal journal, Consumer<Job> onMoveDone,
                    Clock clock, Sleeper sleeper, Lease lease) {
        this.lease = lease;
        nodes.forEach(n -> this.nodes.put(n.id(), n));
        this.config = config;
        this.book = new JobBook(journal, clock);
        this.lock = book.lock;
        this.onMoveDone = onMoveDone;
        this.clock = clock;
        this.sleeper = sleeper != null ? sleeper : Sleeper.until(closing);
        this.janitor = new Janitor(this.nodes, book, moveLimit());
        this.watch = new MoveWatch(clock, this.sleeper);
    }

    public Journal journal() {
        return book.journal();
    }

    /** Whether this sidecar holds the execution lease now. */
    public boolean leaseHeld() {
        return lease.held();
    }

    /** Called once for every job that reaches a final state (for metrics). */
    public void onJobEnd(Consumer<Job> listener) {
        this.onJobEnd = listener;
    }

    private Duration moveLimit() {
        return Duration.ofSeconds(config.execution.moveTimeoutSeconds);
    }

    /**
     * Picks up the journal's job: an unfinished one is resumed or abandoned per
     * execution.on_restart; a finished one that still owes cleanups or caps gets them.
     */
    public void recover() {
        Optional<Job> saved = journal().read();
        if (saved.isEmpty()) {
            return;
        }
        Job j = saved.get();
        synchronized (lock) {
            job = j;
            if (j.finished()) {
                if (owes(j)) {
                    start(j, () -> afterwards(j));
                }
                return;
            }
            if ("abandon".equals(config.execution.onRestart)) {
                book.update(j, () -> j.state = Job.State.ABANDONED,
                        "daemon restarted: job abandoned (execution.on_restart: abandon)");
                start(j, () -> afterwards(j));
                return;
            }
            book.event(j, "daemon restarted: resuming the job");
            start(j, () -> run(j));
        }
    }

    private static boolean owes(Job j) {
        return !j.pendingCleanup.isEmpty() || !j.streamThroughputBefore.isEmpty();
    }

    /**
     * Starts a job for a plan's moveToken actions; fails with IllegalStateException (one line) when
     * a job is still running, cleanups are still owed or another sidecar holds the lease,
     * IllegalArgumentException when the plan holds other actions. The lease is taken outside the
     * executor's lock: it is a CQL round trip, and /status must not wait on it.
     */
    public Job submit(Plan plan, String planId, boolean dryRun) {
        Job j = newJob(plan, planId, dryRun);
        synchronized (lock) {
            mayStart(dryRun);
        }
        if (!dryRun) {
            try {
                lease.acquire().ifPresent(why -> {
                    throw new IllegalStateException(why);
                });
            } catch (Lease.Unavailable e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        synchronized (lock) {
            try {
                mayStart(dryRun);
            } catch (IllegalStateException e) {
                if (!dryRun && (job == null || job.finished() && !owes(job))) {
                    lease.release(); // taken for nothing: no job of this sidecar will give it up
                }
                throw e;
            }
            if (job != null && job.finished()) {
                journal().archive(job, config.execution.history);
            }
            job = j;
            book.event(j, (dryRun ? "dry run of " : "running ") + j.moves.size() + " move(s)");
            start(j, () -> run(j));
            return j;
        }
    }

    private void mayStart(boolean dryRun) {
        if (job != null && !job.finished()) {
            throw new IllegalStateException("job " + job.id + " is still " + job.state.name().toLowerCase(Locale.ROOT));
        }
        if (job != null && !job.pendingCleanup.isEmpty() && !dryRun) {
            throw new IllegalStateException("job " + job.id + " still owes cleanup on " + job.pendingCleanup.keySet()
                    + ": it runs once the ring is NORMAL (see /api/v1/status)");
        }
    }

    private Job newJob(Plan plan, String planId, boolean dryRun) {
        Job j = new Job();
        j.id = UUID.randomUUID().toString();
        j.planId = planId;
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
        return j;
    }

    public Job submit(Plan plan, boolean dryRun) {
        return submit(plan, null, dryRun);
    }

    /**
     * Asks the job to stop: it stops after the move in progress (Cassandra cannot cancel a move),
     * then cleans up. Empty when there is no such job; IllegalStateException when it has ended.
     */
    public Optional<Job> abort(String id) {
        synchronized (lock) {
            if (job == null || !job.id.equals(id)) {
                return Optional.empty();
            }
            if (job.finished()) {
                throw new IllegalStateException("job " + id + " has already ended: " + job.state.name().toLowerCase(Locale.ROOT));
            }
            Job j = job;
            book.update(j, () -> j.abortRequested = true,
                    "abort requested: no further move starts (a move in progress completes: Cassandra cannot cancel it)");
            return Optional.of(copy(j));
        }
    }

    private void start(Job j, Runnable body) {
        worker = new Thread(body, "libra-executor");
        worker.setDaemon(true);
        worker.start();
    }

    /** The current job or one from the history. */
    public Optional<Job> job(String id) {
        synchronized (lock) {
            if (job != null && job.id.equals(id)) {
                return Optional.of(copy(job));
            }
        }
        return journal().history().stream().filter(h -> id.equals(h.id)).findFirst();
    }

    public Optional<Job> current() {
        synchronized (lock) {
            return Optional.ofNullable(job).map(Executor::copy);
        }
    }

    /** The current job first, then the history, newest first. */
    public List<Job> jobs() {
        List<Job> out = new ArrayList<>();
        current().ifPresent(out::add);
        List<Job> older = new ArrayList<>(journal().history());
        java.util.Collections.reverse(older);
        older.stream().filter(h -> out.stream().noneMatch(c -> c.id.equals(h.id))).forEach(out::add);
        return out;
    }

    /** True while the worker thread runs: a job, or the cleanups and caps a finished one still owes. */
    boolean working() {
        Thread w = worker;
        return w != null && w.isAlive();
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
                if (closed() || j.finished()) {
                    break;
                }
                if (m.state == Job.MoveState.DONE || m.state == Job.MoveState.DRY_RUN || m.state == Job.MoveState.SKIPPED) {
                    continue;
                }
                if (j.dryRun) {
                    book.update(j, () -> m.state = Job.MoveState.DRY_RUN);
                    continue;
                }
                if (aborted(j) || !leased(j, m) || !awaitAndRun(j, m)) {
                    break;
                }
            }
            if (!closed() && !j.finished()) {
                book.update(j, () -> {
                    j.state = Job.State.DONE;
                    j.detail = j.dryRun ? "dry run: nothing was moved" : "all moves done";
                }, "job done");
            }
        } catch (RuntimeException e) {
            fail(j, null, "executor error: " + RingGate.firstLine(e));
        }
        if (!closed()) {
            afterwards(j);
            if (!j.dryRun) {
                lease.release();
            }
        }
    }

    /**
     * Renews the lease before a move; a job that lost it to another sidecar fails before moving. A
     * lease store that does not answer (an LWT timing out while a node moves) holds the job like a
     * busy ring, refused only when that outlasts move_timeout_seconds.
     */
    private boolean leased(Job j, Job.Move m) {
        long deadline = clock.millis() + moveLimit().toMillis();
        String last = null;
        while (!closed() && !aborted(j)) {
            try {
                Optional<String> lost = lease.acquire();
                lost.ifPresent(why -> fail(j, m, "not moved: " + why));
                return lost.isEmpty();
            } catch (Lease.Unavailable e) {
                String why = e.getMessage();
                if (clock.millis() > deadline) {
                    fail(j, m, "not moved for " + config.execution.moveTimeoutSeconds + " s: " + why);
                    return false;
                }
                if (!why.equals(last)) {
                    waiting(j, why);
                    last = why;
                }
                if (!pauseQuietly()) {
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * Whatever ended the job: put the operator's caps back and clean up, each as soon as the ring
     * is NORMAL (at once when it already is); a node left MOVING is cleared once it is NORMAL again.
     */
    private void afterwards(Job j) {
        onJobEnd.accept(copy(j));
        while (owes(j) && !closed()) {
            if (RingGate.check(nodes.values()) == null) {
                if (j.leftMoving != null) {
                    String node = j.leftMoving;
                    book.update(j, () -> j.leftMoving = null, node + " is NORMAL again");
                }
                Throughput.restore(j, nodes, book);
                if (!config.execution.cleanup) {
                    book.update(j, () -> j.pendingCleanup.clear(), "cleanup skipped (execution.cleanup: false)");
                } else if (janitor.cleanNow(j, null) && !owes(j)) {
                    book.event(j, "nothing left to clean up");
                    return;
                }
            }
            if (!owes(j) || !pauseQuietly()) {
                return;
            }
        }
    }

    private boolean aborted(Job j) {
        if (!j.abortRequested) {
            return false;
        }
        book.update(j, () -> {
            j.state = Job.State.ABORTED;
            j.detail = "aborted by the operator";
        }, "aborted by the operator");
        return true;
    }

    /** The job waits, saying why (journaled; the next successful look sets it running again). */
    private void waiting(Job j, String why) {
        book.update(j, () -> {
            j.state = Job.State.PAUSED;
            j.detail = "waiting: " + why;
        }, "paused: " + why);
    }

    /** Waits until the gate opens and the operator has not paused; false when the job ended instead. */
    private boolean awaitSafe(Job j) {
        long deadline = clock.millis() + moveLimit().toMillis();
        String last = null;
        while (!closed()) {
            if (aborted(j)) {
                return false;
            }
            String why;
            synchronized (lock) {
                why = paused ? "paused by operator" : null;
            }
            if (why == null) {
                why = RingGate.check(nodes.values());
            }
            if (why == null) {
                // transient conditions are waited out like a busy ring; refused only if they outlast the timeout
                why = Preflight.transientCheck(nodes);
            }
            if (why == null) {
                if (j.state != Job.State.RUNNING) {
                    book.update(j, () -> {
                        j.state = Job.State.RUNNING;
                        j.detail = "running";
                    }, "resumed");
                }
                return true;
            }
            if (!why.equals(last)) {
                waiting(j, why);
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

    /**
     * A read of the ring just before a move is issued failed (a node's JMX blinked after the gate
     * let it through, as right after a restart): nothing was issued, so the job waits and looks again.
     */
    private static final class NotReady extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotReady(Throwable cause) {
            super(RingGate.firstLine(cause), cause, false, false);
        }
    }

    /**
     * Waits for a safe ring, then runs the move; a move whose reads before issuing it fail goes
     * back to waiting, so a second look that differs from the gate's holds the job instead of
     * failing it. Refused only when that outlasts move_timeout_seconds.
     */
    private boolean awaitAndRun(Job j, Job.Move m) {
        long deadline = clock.millis() + moveLimit().toMillis();
        while (awaitSafe(j)) {
            try {
                return runMove(j, m);
            } catch (NotReady e) {
                String why = "cannot read the ring before the move of " + m.node + ": " + e.getMessage();
                if (clock.millis() > deadline) {
                    fail(j, m, "ring not safe for " + config.execution.moveTimeoutSeconds + " s: " + why);
                    return false;
                }
                waiting(j, why);
                if (!pauseQuietly()) {
                    return false;
                }
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
        long deadline = clock.millis() + moveLimit().toMillis();
        try {
            Map<String, Long> before = beforeMove(() -> tokens());
            LostRanges ranges = beforeMove(() -> LostRanges.read(nodes.values(), mover));
            long current = before.get(m.node);
            if (current != to) {
                if (current != from) {
                    fail(j, m, "ring changed since planning: " + m.node + " owns " + Tokens.toKey(current)
                            + ", the plan expected " + m.fromToken);
                    return false;
                }
                String refused = beforeMove(() -> Preflight.check(j, m, ranges.gaining(before, m.node, to), nodes,
                        config.execution));
                if (refused != null) {
                    fail(j, m, "pre-flight refused the move of " + m.node + ": " + refused);
                    return false;
                }
                // every node answers here (the gate just opened); the first values saved are the operator's
                Throughput.cap(j, nodes, config.execution, book);
                Map<String, List<String>> lose = ranges.losing(before, m.node, to);
                // journaled before the move is issued: whatever ends it, these nodes get cleaned
                book.update(j, () -> {
                    lose.forEach((node, ks) -> j.pendingCleanup.merge(node, ks, Executor::union));
                    m.state = Job.MoveState.MOVING;
                }, "moving " + m.node + " " + m.fromToken + " -> " + m.toToken + (lose.isEmpty() ? ""
                        : "; to clean afterwards: " + lose));
                String failure = watch.run(mover, to, moveLimit(), this::closed,
                        p -> book.update(j, () -> m.progress = p));
                if (closed()) {
                    return false;
                }
                if (failure != null) {
                    failMove(j, m, mover, failure);
                    return false;
                }
            } else {
                before.put(m.node, from);
                Map<String, List<String>> lose = ranges.losing(before, m.node, to);
                book.update(j, () -> lose.forEach((node, ks) -> j.pendingCleanup.merge(node, ks, Executor::union)));
            }
            if (!awaitSettled(j, m, to, deadline)) {
                return false;
            }
            book.update(j, () -> {
                m.state = Job.MoveState.CLEANUP;
                m.progress = null;
            });
            if (!config.execution.cleanup) {
                book.update(j, () -> j.pendingCleanup.clear(), "cleanup skipped (execution.cleanup: false)");
            } else if (!janitor.cleanNow(j, m)) {
                fail(j, m, "cleanup after the move of " + m.node + " failed: it is retried once the ring is NORMAL");
                return false;
            }
            book.update(j, () -> m.state = Job.MoveState.DONE, "moved " + m.node + " to " + m.toToken);
            onMoveDone.accept(j);
            return true;
        } catch (NotReady e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            fail(j, m, "move of " + m.node + " failed: " + RingGate.firstLine(e));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A JMX read before the move is issued; its failure is {@link NotReady}. */
    private interface Read<T> {
        T get() throws IOException;
    }

    private static <T> T beforeMove(Read<T> read) {
        try {
            return read.get();
        } catch (IOException e) {
            throw new NotReady(e);
        }
    }

    /** A move that did not finish: fail now, and if the node is left MOVING say what to do. */
    private void failMove(Job j, Job.Move m, RingOps mover, String failure) {
        String mode;
        try {
            mode = mover.operationMode();
        } catch (IOException | RuntimeException e) {
            mode = "unreachable";
        }
        if ("MOVING".equals(mode) || "unreachable".equals(mode)) {
            String remedy = remedy(m, mode);
            LOG.warn("job {}: {}; {}", j.id, failure, remedy);
            book.update(j, () -> {
                j.leftMoving = m.node;
                j.remedy = remedy;
            });
            fail(j, m, failure + "; " + remedy);
        } else {
            fail(j, m, failure);
        }
    }

    static String remedy(Job.Move m, String mode) {
        String decimal = Long.toString(Tokens.fromKey(m.toToken));
        return "node " + m.node + " is " + ("MOVING".equals(mode) ? "left MOVING" : "unreachable and may be left MOVING")
                + ": once the cause is fixed, either run `nodetool move -- " + decimal + "` on " + m.node
                + " to finish the move, or restart Cassandra on " + m.node
                + " to bring it back NORMAL at its old token; the sidecar then runs the pending cleanups itself";
    }

    private static List<String> union(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        b.stream().filter(x -> !out.contains(x)).forEach(out::add);
        return out;
    }

    /** Every node sees the new token, everyone NORMAL, no streams; within what is left of the move's time. */
    private boolean awaitSettled(Job j, Job.Move m, long to, long deadline) {
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
        book.update(j, () -> {
            if (m != null) {
                m.state = Job.MoveState.FAILED;
                m.error = why;
            }
            j.state = Job.State.FAILED;
            j.detail = why;
        }, "failed: " + why);
    }

    /** Paces the polls of the nodes' JMX state: a move, streaming and cleanup have no completion callback over JMX. */
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

    @Override
    public void close() {
        closing.countDown();
        lease.close();
        Thread w = worker;
        if (w != null) {
            w.interrupt();
        }
    }
}
