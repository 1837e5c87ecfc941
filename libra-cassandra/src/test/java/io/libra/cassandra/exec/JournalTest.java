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
        Job job = new Job();
        job.id = "j1";
        Job.Move m = new Job.Move();
        m.node = "n1";
        m.fromToken = "0000000000000001";
        m.toToken = "8000000000000000";
        m.state = Job.MoveState.MOVING;
        job.moves.add(m);
        j.write(job);
        Job back = j.read().orElseThrow();
        assertThat(back.id).isEqualTo("j1");
        assertThat(back.moves.get(0).state).isEqualTo(Job.MoveState.MOVING);
        assertThat(back.finished()).isFalse();
    }
}
