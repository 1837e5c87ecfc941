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

    /** The current job or one from the history. */
    Optional<Job> job(String id);

    /** The current job first, then the history, newest first. */
    java.util.List<Job> jobs();

    /** Starts a job that runs the plan named {@code planId}; IllegalStateException (one line) when it cannot start. */
    Job rebalance(Plan plan, String planId, boolean dryRun);

    /** Asks a running job to stop after its current move; empty when there is no such job. */
    Optional<Job> abort(String id);
}
