package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor's normal and failure paths against a fake ring and a fake clock (no sleeps, no JMX). */
class ExecutorTest {
    private static final long T1 = -6_000_000_000_000_000_000L;
    private static final long T2 = 0;
    private static final long T3 = 6_000_000_000_000_000_000L;
    @TempDir
    Path dir;

    private static Plan move(String node, long from, long to) {
        return new Plan("libra-ring/greedy", List.of(new MoveTokenAction(node, Tokens.toKey(from), Tokens.toKey(to), null,
                1e6)), null, null, PlanStatus.PLANNED, "");
    }

    private Executor executor(FakeRing ring, SidecarConfig c) {
        return new Executor(ring.ops(), c, new Journal(dir.resolve("journal.json")), j -> { }, ring.clock, ring.sleeper);
    }

    private static Job finished(Executor e) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (e.busy()) {
            assertThat(System.nanoTime()).as("the job ends within 20 s").isLessThan(deadline);
            LockSupport.parkNanos(1_000_000L);
        }
        return e.current().orElseThrow();
    }

    @Test
    void aMoveRunsThenCleansUpTheNodesThatLostRanges() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        SidecarConfig c = new SidecarConfig();
        c.execution.streamThroughputMibPerSec = 16;
        try (Executor e = executor(ring, c)) {
            Job j = finished(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            assertThat(j.moves.get(0).state).isEqualTo(Job.MoveState.DONE);
            assertThat(j.moves.get(0).bytes).isEqualTo(1e6);
            assertThat(ring.node("n2").token).isEqualTo(T2 + 1_000_000_000_000_000_000L);
            // n2 grew its arc (RF 1): n3 lost (T2, T2+1e18] and must drop it; n2 gained only
            assertThat(ring.cleanups).containsExactly("n3:ks");
            assertThat(ring.nodes.values()).allSatisfy(n -> assertThat(n.throughput).isEqualTo(16));
            assertThat(new Journal(dir.resolve("journal.json")).read().orElseThrow().state).isEqualTo(Job.State.DONE);
        }
    }

    @Test
    void aFailedMoveFailsTheJobWithOneLine() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").moveFails = new IOException("JMX at 127.0.0.1:7200: Stream failed");
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2, 5)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).isEqualTo("move of n2 failed: JMX at 127.0.0.1:7200: Stream failed");
            assertThat(j.moves.get(0).state).isEqualTo(Job.MoveState.FAILED);
            assertThat(ring.node("n2").token).isEqualTo(T2);
        }
    }

    @Test
    void aRingThatChangedSincePlanningIsNotTouched() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2 + 7, 5)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).startsWith("ring changed since planning: n2 owns " + Tokens.toKey(T2));
            assertThat(ring.log).isEmpty();
        }
    }

    @Test
    void aDownNodeHoldsTheJobUntilMoveTimeoutOnTheClock() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n3").down = true;
        SidecarConfig c = new SidecarConfig();
        c.execution.moveTimeoutSeconds = 600;
        try (Executor e = executor(ring, c)) {
            Job j = finished(withJob(e, move("n2", T2, 5)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).startsWith("ring not safe for 600 s: node n3 is unreachable over JMX");
            assertThat(j.events).anyMatch(s -> s.contains("paused: node n3 is unreachable"));
            assertThat(ring.elapsed().toSeconds()).isBetween(600L, 605L);
            assertThat(ring.log).isEmpty();
        }
    }

    private static Executor withJob(Executor e, Plan p) {
        e.submit(p, false);
        return e;
    }
}
