package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.ring.Tokens;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutorRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void abandonOnRestartMarksTheJobAndTouchesNoNode() {
        Journal journal = new Journal(dir.resolve("journal.json"));
        journal.write(JobFixtures.unfinished());
        SidecarConfig c = new SidecarConfig();
        c.execution.onRestart = "abandon";
        Executor e = new Executor(List.of(), c, journal, j -> { });
        e.recover();
        Job after = journal.read().orElseThrow();
        assertThat(after.state).isEqualTo(Job.State.ABANDONED);
        assertThat(after.events).anyMatch(s -> s.contains("abandoned"));
        assertThat(e.busy()).isFalse();
        assertThat(e.current().orElseThrow().id).isEqualTo("j1");
    }

    /**
     * Killed while n2 moved: Cassandra finished that move meanwhile, so the resumed job cleans up
     * after it without issuing it again, then runs the move still pending.
     */
    @Test
    void aResumedJobWaitsOutTheMoveInFlightThenRunsTheRest() {
        long t2 = 0;
        long t3 = 6_000_000_000_000_000_000L;
        long step = 1_000_000_000_000_000_000L;
        FakeRing ring = new FakeRing(-t3, t2 + step, t3);
        Job saved = new Job();
        saved.id = "j2";
        saved.moves.add(move("n2", t2, t2 + step, Job.MoveState.MOVING));
        saved.moves.add(move("n3", t3, t3 + step, Job.MoveState.PENDING));
        Journal journal = new Journal(dir.resolve("journal.json"));
        journal.write(saved);
        try (Executor e = new Executor(ring.ops(), new SidecarConfig(), journal, j -> { }, ring.clock, ring.sleeper)) {
            e.recover();
            Job j = ExecutorTest.finished(e);
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            assertThat(j.events).anyMatch(x -> x.contains("daemon restarted: resuming the job"));
            assertThat(j.moves).allSatisfy(m -> assertThat(m.state).isEqualTo(Job.MoveState.DONE));
            assertThat(ring.log).as("only the pending move is issued").noneMatch(x -> x.contains("n2"))
                    .anyMatch(x -> x.contains("n3"));
            assertThat(ring.node("n3").token).isEqualTo(t3 + step);
            assertThat(ring.cleanups).as("the ranges n2's move took from n3 are dropped").contains("n3:ks");
        }
    }

    private static Job.Move move(String node, long from, long to, Job.MoveState state) {
        Job.Move m = new Job.Move();
        m.node = node;
        m.fromToken = Tokens.toKey(from);
        m.toToken = Tokens.toKey(to);
        m.state = state;
        return m;
    }

    @Test
    void aFinishedJobIsKeptForReportingOnly() {
        Journal journal = new Journal(dir.resolve("journal.json"));
        Job done = JobFixtures.unfinished();
        done.state = Job.State.DONE;
        journal.write(done);
        Executor e = new Executor(List.of(), new SidecarConfig(), journal, j -> { });
        e.recover();
        assertThat(e.busy()).isFalse();
        assertThat(journal.read().orElseThrow().state).isEqualTo(Job.State.DONE);
    }
}
