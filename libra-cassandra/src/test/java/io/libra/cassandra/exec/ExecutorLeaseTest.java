package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.ring.Tokens;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job moves tokens only while it holds the execution lease (a fake lease, a fake ring). */
class ExecutorLeaseTest {
    private static final long T1 = -6_000_000_000_000_000_000L;
    private static final long T2 = 0;
    private static final long T3 = 6_000_000_000_000_000_000L;
    private static final long STEP = 1_000_000_000_000_000_000L;
    private static final String HELD = "the execution lease on ring cassandra is held by other:9044";
    /** Scripted as an answer, acquire() throws {@link Lease.Unavailable} with it. */
    private static final String UNAVAILABLE = "cannot take the execution lease in libra_sidecar.lease over CQL "
            + "(127.0.0.1:9042): CAS operation timed out";
    @TempDir
    Path dir;

    /** Answers acquire() from a script (empty: held), then keeps the last answer; counts releases. */
    private static final class ScriptedLease implements Lease {
        final Deque<Optional<String>> answers = new ArrayDeque<>();
        /** Read by the test thread while the job's worker adds to it. */
        final List<String> calls = new CopyOnWriteArrayList<>();

        /** {@code null}: this sidecar holds it; else the refusal. */
        ScriptedLease(String... answers) {
            for (String a : answers) {
                this.answers.add(Optional.ofNullable(a));
            }
        }

        boolean held;

        @Override
        public synchronized Optional<String> acquire() {
            calls.add("acquire");
            Optional<String> answer = answers.size() > 1 ? answers.poll() : answers.peek();
            if (answer.filter(UNAVAILABLE::equals).isPresent()) {
                throw new Lease.Unavailable(UNAVAILABLE, null);
            }
            held = answer.isEmpty();
            return answer;
        }

        @Override
        public synchronized void release() {
            calls.add("release");
            held = false;
        }

        @Override
        public synchronized boolean held() {
            return held;
        }

        @Override
        public void close() {
        }
    }

    private Executor executor(FakeRing ring, Lease lease) {
        return new Executor(ring.ops(), new SidecarConfig(), new Journal(dir.resolve("journal.json")), j -> { },
                ring.clock, ring.sleeper, lease);
    }

    private static Plan moves(MoveTokenAction... a) {
        return new Plan("libra-ring/greedy", List.of(a), null, null, PlanStatus.PLANNED, "");
    }

    private static Plan oneMove() {
        return moves(move("n2", T2, T2 + STEP));
    }

    /** n2 then n3, each a step clockwise. */
    private static Plan twoMoves() {
        return moves(move("n2", T2, T2 + STEP), move("n3", T3, T3 + STEP));
    }

    private static MoveTokenAction move(String node, long from, long to) {
        return new MoveTokenAction(node, Tokens.toKey(from), Tokens.toKey(to), null, 1e6);
    }

    @Test
    void aJobIsRefusedWhileAnotherSidecarHoldsTheLeaseAndADryRunIsNot() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ScriptedLease lease = new ScriptedLease(HELD);
        try (Executor e = executor(ring, lease)) {
            assertThatThrownBy(() -> e.submit(oneMove(), false))
                    .isInstanceOf(IllegalStateException.class).hasMessage(HELD);
            assertThat(e.current()).isEmpty();
            assertThat(ring.node("n2").token).isEqualTo(T2);
            Job dry = ExecutorTest.finished(withJob(e, oneMove(), true));
            assertThat(dry.state).isEqualTo(Job.State.DONE);
            assertThat(lease.calls).containsExactly("acquire");
        }
    }

    @Test
    void aPlanTheExecutorCannotRunNeverTakesTheLease() {
        ScriptedLease lease = new ScriptedLease((String) null);
        try (Executor e = executor(new FakeRing(T1, T2, T3), lease)) {
            Plan regions = new Plan("libra", List.of(new io.libra.core.plan.MoveAction("r-0", "n1", "n2", 0, null)), null, null,
                    PlanStatus.PLANNED, "");
            assertThatThrownBy(() -> e.submit(regions, false)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("moveToken actions only");
            assertThat(lease.calls).isEmpty();
        }
    }

    @Test
    void aJobHoldsTheLeaseForEveryMoveAndGivesItUpOnceCleanedUp() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ScriptedLease lease = new ScriptedLease((String) null);
        try (Executor e = executor(ring, lease)) {
            Job j = ExecutorTest.finished(withJob(e, twoMoves(), false));
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            awaitReleased(lease);
            // at submit, before each of the two moves, then given up after the cleanups
            assertThat(lease.calls).containsExactly("acquire", "acquire", "acquire", "release");
            assertThat(e.leaseHeld()).isFalse();
            assertThat(ring.cleanups).isNotEmpty();
        }
    }

    @Test
    void aLeaseLostToAnotherSidecarFailsTheJobBeforeItsNextMoveAndStillCleansUp() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ScriptedLease lease = new ScriptedLease(null, null, HELD); // at submit, before move 1, before move 2
        try (Executor e = executor(ring, lease)) {
            Job j = ExecutorTest.finished(withJob(e, twoMoves(), false));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).contains("not moved: " + HELD);
            assertThat(j.moves.get(0).state).isEqualTo(Job.MoveState.DONE);
            assertThat(j.moves.get(1).state).isEqualTo(Job.MoveState.FAILED);
            assertThat(ring.node("n2").token).isEqualTo(T2 + STEP);
            assertThat(ring.node("n3").token).isEqualTo(T3);
            awaitReleased(lease);
            assertThat(ring.cleanups).as("the first move's lost ranges are cleaned all the same").isNotEmpty();
        }
    }

    @Test
    void aLeaseStoreThatDoesNotAnswerHoldsTheJobUntilItDoes() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ScriptedLease lease = new ScriptedLease(null, UNAVAILABLE, UNAVAILABLE, null);
        try (Executor e = executor(ring, lease)) {
            Job j = ExecutorTest.finished(withJob(e, twoMoves(), false));
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            assertThat(j.events).anyMatch(x -> x.contains("paused: " + UNAVAILABLE));
            assertThat(j.events.stream().filter(x -> x.contains(UNAVAILABLE))).as("said once while it lasts").hasSize(1);
            assertThat(ring.node("n2").token).isEqualTo(T2 + STEP);
            assertThat(ring.node("n3").token).isEqualTo(T3 + STEP);
        }
    }

    @Test
    void aLeaseStoreSilentForTheMoveTimeoutFailsTheJobBeforeItMoves() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ScriptedLease lease = new ScriptedLease(null, UNAVAILABLE);
        try (Executor e = executor(ring, lease)) {
            Job j = ExecutorTest.finished(withJob(e, oneMove(), false));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).contains("not moved for 1800 s: " + UNAVAILABLE);
            assertThat(ring.node("n2").token).isEqualTo(T2);
            assertThatThrownBy(() -> e.submit(oneMove(), false)).as("a new job is refused with the same line")
                    .isInstanceOf(IllegalStateException.class).hasMessage(UNAVAILABLE);
        }
    }

    private static Executor withJob(Executor e, Plan p, boolean dryRun) {
        e.submit(p, dryRun);
        return e;
    }

    private static void awaitReleased(ScriptedLease lease) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!lease.calls.contains("release")) {
            assertThat(System.nanoTime()).as("the lease is given up within 20 s").isLessThan(deadline);
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
