package io.libra.cassandra.http;

import io.libra.cassandra.exec.Job;
import io.libra.core.plan.Plan;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** A daemon for API tests: a view, and rebalances recorded by the plan id they named. */
class StubDaemon implements Daemon {
    final List<String> started = new java.util.ArrayList<>();
    private final Supplier<DaemonView> view;

    StubDaemon(Supplier<DaemonView> view) {
        this.view = view;
    }

    @Override
    public DaemonView view() {
        return view.get();
    }

    @Override
    public String metrics() {
        return "";
    }

    @Override
    public void pause() {
    }

    @Override
    public void resume() {
    }

    @Override
    public Optional<Job> job(String id) {
        return Optional.empty();
    }

    @Override
    public List<Job> jobs() {
        return List.of();
    }

    @Override
    public Job rebalance(Plan p, String planId, boolean dryRun) {
        started.add(planId);
        Job j = new Job();
        j.id = "job-1";
        return j;
    }

    @Override
    public Optional<Job> abort(String id) {
        return Optional.empty();
    }
}
