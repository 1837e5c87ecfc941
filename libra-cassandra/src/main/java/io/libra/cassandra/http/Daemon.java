package io.libra.cassandra.http;

import io.libra.cassandra.exec.Job;
import io.libra.core.plan.Plan;
import java.util.Optional;

/** What the API needs of the daemon, and nothing more: its state as one value, the metrics text and the job controls. */
public interface Daemon {
    /** The daemon's state, read once per request so an answer is consistent. */
    DaemonView view();

    /** Prometheus text exposition. */
    String metrics();

    void pause();

    void resume();

    Optional<Job> job(String id);

    /** Starts a job that runs the plan; IllegalStateException (one line) when a job is still running. */
    Job rebalance(Plan plan, boolean dryRun);
}
