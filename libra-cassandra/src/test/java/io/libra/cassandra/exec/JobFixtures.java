package io.libra.cassandra.exec;

/** Journal contents the executor tests start from. */
final class JobFixtures {
    private JobFixtures() {
    }

    /** Job {@code j1} with one move of n1 still in flight, as a killed sidecar leaves it. */
    static Job unfinished() {
        Job job = new Job();
        job.id = "j1";
        Job.Move m = new Job.Move();
        m.node = "n1";
        m.fromToken = "0000000000000001";
        m.toToken = "8000000000000000";
        m.state = Job.MoveState.MOVING;
        job.moves.add(m);
        return job;
    }
}
