package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
    @TempDir
    Path dir;

    @Test
    void roundTripsAJobAndSeesNoneBeforeTheFirstWrite() {
        Journal j = new Journal(dir.resolve("sub/journal.json"));
        assertThat(j.read()).isEmpty();
        Job job = JobFixtures.unfinished();
        j.write(job);
        Job back = j.read().orElseThrow();
        assertThat(back.id).isEqualTo("j1");
        assertThat(back.moves.get(0).state).isEqualTo(Job.MoveState.MOVING);
        assertThat(back.finished()).isFalse();
    }
}
