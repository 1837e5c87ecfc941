package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.config.SidecarConfig;
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
