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

    /** The executor's job once it has ended and nothing more runs (at most 20 s). */
    static Job finished(Executor e) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (e.busy() || e.working()) {
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
            assertThat(j.events).anyMatch(x -> x.contains("streaming capped at 16 MiB/s"));
            assertThat(j.pendingCleanup).isEmpty();
            awaitNothingOwed(e);
            assertThat(ring.nodes.values()).allSatisfy(n -> assertThat(n.caps).containsExactly(10, 20));
            assertThat(new Journal(dir.resolve("journal.json")).read().orElseThrow().state).isEqualTo(Job.State.DONE);
        }
    }

    /**
     * NetworkTopologyStrategy {dc1: 2} over two racks (n1, n2 in rack1; n3, n4 in rack2): the range
     * n2 takes from n3 was on n3 and n1 (n4 shares n3's rack), so n1 is cleaned, not n4 as the next
     * nodes clockwise would have it.
     */
    @Test
    void cleanupFollowsTheRacksOfNetworkTopologyStrategy() {
        FakeRing ring = new FakeRing(T1, T2, 3_000_000_000_000_000_000L, T3);
        ring.rf.clear();
        ring.replication.put("ks", "NetworkTopologyStrategy {dc1=2}");
        ring.node("n3").rack = "rack2";
        ring.node("n4").rack = "rack2";
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            assertThat(ring.cleanups).containsExactly("n1:ks");
            assertThat(j.events).anyMatch(x -> x.contains("to clean afterwards: {n1=[ks]}"));
        }
    }

    /** A pre-flight read that fails after the gate opened (JMX blinking after a restart) holds the job, never fails it. */
    @Test
    void aPreflightReadThatBlinksHoldsTheJobAndTheMoveRuns() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").freeDiskFailures.set(3);
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).as(j.detail).isEqualTo(Job.State.DONE);
            assertThat(j.events).anyMatch(x -> x.contains("paused: cannot read the ring before the move of n2: "
                    + "JMX at 127.0.0.2:7199: connection reset"));
            assertThat(ring.node("n2").token).isEqualTo(T2 + 1_000_000_000_000_000_000L);
        }
    }

    /** Reads that keep failing are refused once they outlast move_timeout_seconds, and nothing was moved. */
    @Test
    void aPreflightReadThatKeepsFailingIsRefusedAtTheTimeout() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").freeDiskFailures.set(Integer.MAX_VALUE);
        SidecarConfig c = new SidecarConfig();
        c.execution.moveTimeoutSeconds = 60;
        try (Executor e = executor(ring, c)) {
            Job j = finished(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).startsWith("ring not safe for 60 s: cannot read the ring before the move of n2: ");
            assertThat(j.moves.get(0).state).isEqualTo(Job.MoveState.FAILED);
            assertThat(ring.node("n2").token).isEqualTo(T2);
        }
    }

    /**
     * When, on the fake clock, the job failed: its "failed:" event's stamp (the clock goes on while
     * the worker waits to clean up, so the clock read later would say more).
     */
    private static java.time.Duration failedAfter(Job j) {
        String e = j.events.stream().filter(x -> x.contains(" failed: ")).findFirst().orElseThrow();
        return java.time.Duration.between(java.time.Instant.parse("2026-01-01T00:00:00Z"),
                java.time.Instant.parse(e.substring(0, e.indexOf(' '))));
    }

    /** Waits until the job has ended while it still owes cleanups (the worker waits for a NORMAL ring). */
    private static Job endedOwing(Executor e) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (e.busy() || e.current().orElseThrow().pendingCleanup.isEmpty()) {
            assertThat(System.nanoTime()).as("the job ends within 20 s").isLessThan(deadline);
            LockSupport.parkNanos(1_000_000L);
        }
        return e.current().orElseThrow();
    }

    /** Waits (deadline-bounded) until the job owes neither cleanups nor the operator's caps. */
    private static Job awaitNothingOwed(Executor e) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Job j = e.current().orElseThrow();
        while (!j.pendingCleanup.isEmpty() || !j.streamThroughputBefore.isEmpty() || e.working()) {
            assertThat(System.nanoTime()).as("cleanups and caps settled within 20 s: " + j.events).isLessThan(deadline);
            LockSupport.parkNanos(1_000_000L);
            j = e.current().orElseThrow();
        }
        return j;
    }

    @Test
    void aMoveThatFailsLeavingTheNodeMovingIsReportedAtOnceAndCleanedUpOnceNormal() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").moveFails = new IOException("JMX at 127.0.0.1:7200: Stream failed");
        ring.node("n2").moveLeavesMoving = true;
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = endedOwing(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(failedAfter(j).toSeconds()).as("no waiting on a failed move").isLessThan(10);
            assertThat(j.leftMoving).isEqualTo("n2");
            assertThat(j.remedy).contains("nodetool move -- 1000000000000000000").contains("restart Cassandra on n2");
            assertThat(j.detail).startsWith("move of n2 failed: JMX at 127.0.0.1:7200: Stream failed; node n2 is left MOVING");
            assertThat(j.pendingCleanup).containsOnlyKeys("n3");
            assertThat(ring.cleanups).isEmpty();
            ring.node("n2").mode = "NORMAL"; // the operator restarted n2
            Job settled = awaitNothingOwed(e);
            assertThat(ring.cleanups).containsExactly("n3:ks");
            assertThat(settled.events).anyMatch(x -> x.contains("cleaned up ks on n3"));
            assertThat(settled.leftMoving).as("cleared once n2 is NORMAL again").isNull();
            assertThat(settled.events).anyMatch(x -> x.contains("n2 is NORMAL again"));
            assertThat(ring.nodes.values()).allSatisfy(n -> assertThat(n.caps).containsExactly(10, 20));
        }
    }

    @Test
    void aHungMoveIsBoundedByMoveTimeout() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").moveHangs = new java.util.concurrent.CountDownLatch(1);
        SidecarConfig c = new SidecarConfig();
        c.execution.moveTimeoutSeconds = 120;
        try (Executor e = executor(ring, c)) {
            Job j = endedOwing(withJob(e, move("n2", T2, 5)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).startsWith("the move of n2 did not finish within 120 s (execution.move_timeout_seconds)")
                    .contains("left MOVING");
            assertThat(failedAfter(j).toSeconds()).isBetween(120L, 125L);
            ring.node("n2").moveHangs.countDown();
            ring.node("n2").mode = "NORMAL";
            awaitNothingOwed(e);
        }
    }

    @Test
    void abortStopsBeforeTheNextMove() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        try (Executor e = executor(ring, new SidecarConfig())) {
            e.pause();
            Job started = e.submit(move("n2", T2, 5), false);
            assertThat(e.abort(started.id)).isPresent();
            Job j = finished(e);
            assertThat(j.state).isEqualTo(Job.State.ABORTED);
            assertThat(ring.log).isEmpty();
            assertThat(e.abort("nope")).isEmpty();
            assertThatThrownBy(() -> e.abort(started.id)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has already ended");
        }
    }

    @Test
    void preflightRefusesAReceiverWithoutTwiceTheRoom() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n2").freeDisk = 1_500_000; // n2 grows its arc and receives 1 MB: needs 2 MB
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).isEqualTo("pre-flight refused the move of n2: n2 has 1.5 MB free, needs at least "
                    + "2 x 1.0 MB for the ranges it receives");
            assertThat(ring.log).isEmpty();
        }
    }

    @Test
    void pendingHintsSchemaDisagreementAndRepairHoldTheMoveAndSayWhy() {
        for (int k = 0; k < 3; k++) {
            FakeRing ring = new FakeRing(T1, T2, T3);
            FakeRing.Node n1 = ring.node("n1");
            String expected = switch (k) {
                case 0 -> { n1.hints = 1; yield "n1 holds hints for 1 node(s), not yet delivered"; }
                case 1 -> { n1.schemaDisagrees = true; yield "schema disagreement seen by n1: 2 versions"; }
                default -> { n1.repairs = 2; yield "a repair is running (n1: 2 session(s))"; }
            };
            SidecarConfig c = new SidecarConfig();
            c.execution.moveTimeoutSeconds = 60;
            try (Executor e = new Executor(ring.ops(), c, new Journal(dir.resolve("j" + k + ".json")), j -> { },
                    ring.clock, ring.sleeper)) {
                Job j = finished(withJob(e, move("n2", T2, 5)));
                assertThat(j.state).isEqualTo(Job.State.FAILED);
                assertThat(j.detail).startsWith("ring not safe for 60 s: " + expected);
                assertThat(j.events).anyMatch(x -> x.contains("paused: " + expected));
                assertThat(ring.log).isEmpty();
            }
        }
    }

    @Test
    void aHintWrittenJustAfterTheWaitDoesNotFailTheMove() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n1").hintOnCall = 2; // clear when the wait looks, one hint right after (a node back under load)
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = finished(withJob(e, move("n2", T2, 5)));
            assertThat(j.detail).isEqualTo("all moves done");
            assertThat(j.state).isEqualTo(Job.State.DONE);
        }
    }

    @Test
    void aFailedCleanupStaysOwedAndBlocksTheNextJob() {
        FakeRing ring = new FakeRing(T1, T2, T3);
        ring.node("n3").cleanupStatus = 1;
        try (Executor e = executor(ring, new SidecarConfig())) {
            Job j = endedOwing(withJob(e, move("n2", T2, T2 + 1_000_000_000_000_000_000L)));
            assertThat(j.state).isEqualTo(Job.State.FAILED);
            assertThat(j.detail).startsWith("cleanup after the move of n2 failed");
            assertThat(j.pendingCleanup).containsOnlyKeys("n3");
            assertThat(j.events).anyMatch(x -> x.contains("cleanup of ks on n3 ended with status 1 (aborted)"));
            assertThatThrownBy(() -> e.submit(move("n1", T1, T1 + 5), false)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still owes cleanup on [n3]");
            ring.node("n3").cleanupStatus = 0;
            awaitNothingOwed(e);
            assertThat(ring.cleanups).containsExactly("n3:ks");
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
            assertThat(j.leftMoving).isNull();
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
            assertThat(failedAfter(j).toSeconds()).isBetween(600L, 605L);
            assertThat(ring.log).isEmpty();
        }
    }

    private static Executor withJob(Executor e, Plan p) {
        e.submit(p, false);
        return e;
    }
}
