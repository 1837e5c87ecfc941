package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.CassandraNode;
import io.libra.cassandra.jmx.JmxNode;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.TokenMove;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor against a node whose JMX port is closed: it must wait, report, then give up. */
class ExecutorSafetyTest {
    @TempDir
    Path dir;

    private static RingPlan plan() {
        Reason r = new Reason(Dimension.CPU, List.of(), new NodeDeviation("n1", 0.5, 0.1),
                new NodeDeviation("n2", -0.2, 0.1), "test");
        Balance b = new Balance(1.5, 1.2, 0.5);
        return new RingPlan("greedy", List.of(new TokenMove("n1", -5, 5, 10, r)), b, b, PlanStatus.PLANNED, "");
    }

    private Executor executor(SidecarConfig c, Journal journal) {
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.id = "n1";
        in.jmxPort = 1;
        return new Executor(List.of(new CassandraNode(new JmxNode(in))), c, journal, j -> { });
    }

    private static Job awaitFinished(Executor e) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (e.busy()) {
            assertThat(System.nanoTime()).as("job finishes within 20 s").isLessThan(deadline);
            LockSupport.parkNanos(50_000_000L);
        }
        return e.current().orElseThrow();
    }

    @Test
    void aDownNodePausesTheJobThenAbortsItAfterTheTimeout() {
        SidecarConfig c = new SidecarConfig();
        c.execution.moveTimeoutSeconds = 1;
        Journal journal = new Journal(dir.resolve("j.json"));
        try (Executor e = executor(c, journal)) {
            Job started = e.submit(plan(), false);
            assertThat(started.moves).singleElement().satisfies(m -> {
                assertThat(m.fromToken).isEqualTo("7ffffffffffffffb");
                assertThat(m.toToken).isEqualTo("8000000000000005");
            });
            Job done = awaitFinished(e);
            assertThat(done.state).isEqualTo(Job.State.FAILED);
            assertThat(done.detail).startsWith("ring not safe for 1 s: node n1 is unreachable over JMX");
            assertThat(done.events).anyMatch(s -> s.contains("paused: node n1 is unreachable"));
            assertThat(journal.read().orElseThrow().state).isEqualTo(Job.State.FAILED);
        }
    }

    @Test
    void dryRunTouchesNoNodeAndOneJobRunsAtATime() {
        SidecarConfig c = new SidecarConfig();
        c.execution.moveTimeoutSeconds = 5;
        try (Executor e = executor(c, new Journal(dir.resolve("j.json")))) {
            e.pause();
            e.submit(plan(), false);
            assertThatThrownBy(() -> e.submit(plan(), true)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is still");
        }
        try (Executor e = executor(c, new Journal(dir.resolve("dry.json")))) {
            Job done = awaitFinished(withSubmit(e));
            assertThat(done.state).isEqualTo(Job.State.DONE);
            assertThat(done.moves.get(0).state).isEqualTo(Job.MoveState.DRY_RUN);
            assertThat(done.detail).contains("dry run");
        }
    }

    private static Executor withSubmit(Executor e) {
        e.submit(plan(), true);
        return e;
    }
}
