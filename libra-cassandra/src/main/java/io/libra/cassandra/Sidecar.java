package io.libra.cassandra;

import io.libra.cassandra.collect.Collector;
import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.collect.WindowPool;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.CqlLease;
import io.libra.cassandra.exec.Executor;
import io.libra.cassandra.exec.Journal;
import io.libra.cassandra.exec.Lease;
import io.libra.cassandra.exec.Job;
import io.libra.cassandra.exec.PlanIds;
import io.libra.cassandra.http.Api;
import io.libra.cassandra.http.ApiServer;
import io.libra.cassandra.http.Tls;
import io.libra.cassandra.http.Daemon;
import io.libra.cassandra.http.DaemonView;
import io.libra.cassandra.http.Views;
import io.libra.cassandra.jmx.CassandraNode;
import io.libra.cassandra.jmx.JmxNode;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.libra.cassandra.config.StartupException;
import io.libra.cassandra.jmx.JmxProbe;
import io.libra.cassandra.time.Sleeper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon: a loop that measures a window, models the ring and plans; an executor for
 * rebalance jobs; the HTTP API. Plans only on complete windows during which no job ran.
 */
public final class Sidecar implements Daemon, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);
    private final SidecarConfig config;
    private final List<CassandraNode> nodes = new ArrayList<>();
    private final Collector collector;
    private final RingModelBuilder builder;
    private final RingPlanning planning;
    /** The plan the running (or last) job was submitted with: its forecast is checked once it ran in full. */
    private volatile Plan submitted;
    private final Executor executor;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter windows;
    private final Counter moves;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Instant startedAt = Instant.now();
    private final AtomicInteger windowCount = new AtomicInteger();
    private volatile State state = new State(null, null, "no window measured yet");
    private volatile Instant lastJobActivity = Instant.EPOCH;
    /** Held while a job is submitted, and while a window is judged on whether one ran ({@link #jobRanDuring}). */
    private final Object submitting = new Object();
    private volatile double lastDelta;
    /** A vnode ring: measured and reported, never planned on (StorageService.move needs one token per node). */
    private volatile boolean observeOnly;
    /** A vnode ring's windows since it last changed (touched by the measuring loop only). */
    private final WindowPool observedWindows;
    private Thread loop;
    private ApiServer api;
    private JmxProbe.Report jmxAtStart = JmxProbe.Report.NONE;
    private Instant firstWindowAt;
    private final MultiGauge nodeCpu;
    private final MultiGauge nodeDisk;

    /** What the latest window produced; {@code planId} names {@code plan} for a rebalance to pin. */
    record State(Window window, RingModel model, Plan plan, String planId, String snapshotJson, String snapshotSha256,
                 String problem, DaemonView.Estimate estimate) {
        State(Window window, RingModel model, String problem) {
            this(window, model, null, null, null, null, problem, null);
        }

        /** The same, with the estimate of the latest round. */
        State withEstimate(DaemonView.Estimate e) {
            return new State(window, model, plan, planId, snapshotJson, snapshotSha256, problem, e);
        }

        /** The same model and snapshot, with no plan, for the reason given. */
        State withoutPlan(String why) {
            return new State(window, model, null, null, snapshotJson, snapshotSha256, why, estimate);
        }
    }

    /** The first configured node's data centre, as its snitch reports it: the lease's CQL session is local to it. */
    private String localDatacenter() {
        for (CassandraNode n : nodes) {
            try {
                return n.datacenter();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debug("node {} did not say its data centre: {}", n.id(), e.toString());
            }
        }
        throw new IllegalStateException("no node answered EndpointSnitchInfo over JMX (set lease.local_datacenter)");
    }

    public Sidecar(SidecarConfig config) {
        this.config = config;
        for (SidecarConfig.Instance in : config.instances) {
            nodes.add(new CassandraNode(new JmxNode(in, config.jmx)));
        }
        this.collector = new Collector(nodes, config);
        this.builder = new RingModelBuilder(config.collection.subrangesPerArc, config.planner.estimation(),
                config.diskCapacities());
        this.observedWindows = new WindowPool(config.planner.historyWindows + 1);
        this.planning = new RingPlanning(config.planner, registry,
                PlanningStore.beside(Path.of(config.execution.journal), config.clusterName));
        this.executor = new Executor(nodes, config, new Journal(Path.of(config.execution.journal)), j -> onMoveDone(),
                config.lease.enabled ? new CqlLease(config, this::localDatacenter) : Lease.NONE);
        this.windows = Counter.builder("libra_cassandra_windows").description("Measurement windows completed")
                .register(registry);
        this.moves = Counter.builder("libra_cassandra_token_moves")
                .description("Token moves completed by rebalance jobs").register(registry);
        Gauge.builder("libra_cassandra_lease_held", executor, e -> e.leaseHeld() ? 1 : 0)
                .description("1 while this sidecar holds the ring's execution lease (a job runs or cleans up), else 0")
                .register(registry);
        Gauge.builder("libra_cassandra_job_running", executor, e -> e.busy() ? 1 : 0)
                .description("1 while a rebalance job runs or waits, else 0").register(registry);
        for (Job.State st : Job.State.values()) {
            Gauge.builder("libra_cassandra_job_state", executor,
                    e -> e.current().map(j -> j.state == st ? 1 : 0).orElse(0))
                    .description("1 for the state the current (or last) rebalance job is in, else 0")
                    .tag("state", st.name().toLowerCase(java.util.Locale.ROOT)).register(registry);
        }
        Counter failed = Counter.builder("libra_cassandra_jobs_failed")
                .description("Rebalance jobs that ended FAILED since the daemon started").register(registry);
        executor.onJobEnd(j -> {
            if (j.state == Job.State.FAILED) {
                failed.increment();
            }
            Plan ran = submitted;
            if (j.state == Job.State.DONE && !j.dryRun && ran != null) {
                planning.executed(ran);
            } else if (!j.dryRun) {
                planning.forgetExecuted();
            }
        });
        Gauge.builder("libra_cassandra_cleanups_pending", executor,
                e -> e.current().map(Job::cleanupsPending).orElse(0))
                .description("(node, keyspace) cleanups a job still owes; they run once the ring is NORMAL")
                .register(registry);
        Gauge.builder("libra_cassandra_nodes_left_moving", this, s -> Views.alerts(s.view()).size())
                .description("Nodes left MOVING (a failed move): see alerts in /api/v1/status for the remedy")
                .register(registry);
        this.nodeCpu = MultiGauge.builder("libra_cassandra_node_cpu_cores")
                .description("Cores the node's Cassandra process kept busy over the last window (nodes that answered)")
                .register(registry);
        this.nodeDisk = MultiGauge.builder("libra_cassandra_node_disk_bytes_per_second")
                .description("Disk bytes/s the node read and wrote over the last window (nodes that answered)")
                .baseUnit("bytes").register(registry);
    }

    /** Gauges that exist only once there is a window: before it they would read NaN. */
    private void registerWindowGauges() {
        Gauge.builder("libra_cassandra_window_age_seconds", this, s -> s.windowAge())
                .description("Seconds since the last measurement window ended").register(registry);
        Gauge.builder("libra_cassandra_window_plannable", this, s -> s.state.problem() == null ? 1 : 0)
                .description("1 when the last window can be planned on, 0 when it is flagged (see /api/v1/status)")
                .register(registry);
        Gauge.builder("libra_cassandra_imbalance_degree", this, s -> s.lastDelta)
                .description("Imbalance degree Δ (eq. 4) of the last window that could be planned on").register(registry);
    }

    private double windowAge() {
        Window w = state.window();
        return w == null ? 0 : Math.max(0, java.time.Duration.between(w.end(), Instant.now()).toMillis() / 1000.0);
    }

    private void publish(Window w) {
        List<MultiGauge.Row<?>> cpu = new ArrayList<>();
        List<MultiGauge.Row<?>> disk = new ArrayList<>();
        for (Window.NodeStat n : w.nodes()) {
            if (n.up()) {
                cpu.add(MultiGauge.Row.of(Tags.of("node", n.id()), n.cpuUsage()));
                disk.add(MultiGauge.Row.of(Tags.of("node", n.id()), n.diskBytesPerSec()));
            }
        }
        nodeCpu.register(cpu, true);
        nodeDisk.register(disk, true);
        if (state.plan() != null) {
            lastDelta = state.plan().before().imbalanceDegree();
        }
        if (windowCount.get() == 1) {
            registerWindowGauges();
        }
    }

    /**
     * Checks the journal's directory, binds the API, asks every node over JMX (when
     * {@code requireJmx}, none answering is fatal), recovers an unfinished job and starts the
     * measuring loop. Any failure closes what was opened and is a {@link StartupException}.
     */
    public Sidecar start(boolean requireJmx) {
        try {
            executor.journal().checkWritable();
            api = new ApiServer(config.http.host, config.http.port, Tls.context(config.http), new Api(this));
            jmxAtStart = JmxProbe.probe(nodes);
            if (requireJmx && jmxAtStart.reachable().isEmpty()) {
                throw new StartupException("JMX: no node answers: " + jmxAtStart.failuresLine()
                        + " (is Cassandra running, and its JMX reachable from here? see docs/cassandra.md)");
            }
            jmxAtStart.failures().forEach((id, why) -> LOG.warn("node {} does not answer over JMX: {}", id, why));
            observeOnly = jmxAtStart.vnodes();
            String sampling = config.collection.sampling;
            collector.sampling(sampling.equals("on") || sampling.equals("auto") && !observeOnly);
            if (observeOnly) {
                LOG.warn("vnode ring (a node has more than one token): observe-only, partition sampling {}",
                        sampling.equals("on") ? "on (collection.sampling: on)" : "off");
            }
            executor.recover();
        } catch (RuntimeException e) {
            close();
            throw e instanceof StartupException ? e : new StartupException(firstLine(e));
        }
        loop = new Thread(this::runLoop, "libra-collector");
        loop.setDaemon(true);
        firstWindowAt = Instant.now().plusSeconds(config.collection.windowSeconds);
        loop.start();
        LOG.info("libra-cassandra listening on http://{}:{}; JMX answers on {}/{} node(s); first window at about {}",
                config.http.host, api.port(), jmxAtStart.reachable().size(), nodes.size(), firstWindowAt);
        return this;
    }

    /** Starts without insisting on JMX (tests against nodes that are down). */
    public Sidecar start() {
        return start(false);
    }

    public boolean observeOnly() {
        return observeOnly;
    }

    /** What JMX said at startup. */
    public JmxProbe.Report jmxAtStart() {
        return jmxAtStart;
    }

    /** When the first window should be measured (start + collection.window_seconds). */
    public Instant firstWindowAt() {
        return firstWindowAt;
    }

    private void runLoop() {
        while (stop.getCount() > 0) {
            try {
                Window w = collector.collect(Sleeper.until(stop));
                windows.increment();
                windowCount.incrementAndGet();
                state = evaluate(w);
                publish(w);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warn("window failed: {}", firstLine(e));
                LOG.debug("window failed", e);
                state = new State(state.window(), null, "window failed: " + firstLine(e));
            }
        }
    }

    private State evaluate(Window w) {
        List<String> problems = new ArrayList<>(w.problems());
        if (observeOnly) {
            problems.add(0, "vnode ring: observe-only (token moves need num_tokens: 1; see docs/cassandra.md)");
        }
        if (jobRanDuring(w)) {
            problems.add("a rebalance job ran during the window: its load is not planned on");
        }
        if (!problems.isEmpty()) {
            LOG.info("window not planned on: {}", String.join("; ", problems));
            return observeOnly ? observed(w, String.join("; ", problems)) : new State(w, null, String.join("; ", problems));
        }
        RingModel model = builder.build(w);
        String json = SnapshotCodec.write(model.snapshot());
        State modelled = new State(w, model, null, null, json, SnapshotCodec.sha256(json.getBytes(StandardCharsets.UTF_8)),
                null, state.estimate());
        RingPlanning.Round round = planning.plan(model);
        Plan plan = round.plan();
        if (round.dropped() != null) {
            LOG.info("{}", round.dropped());
        }
        DaemonView.Estimate estimate = new DaemonView.Estimate(plan.estimation(), round.conservative(), planning.windows(),
                round.dropped(), round.check().map(c -> c.shift().share()).orElse(Double.NaN),
                round.check().map(io.libra.core.estimate.PredictionCheck::explainedByWorkload).orElse(false));
        if (plan.status() == PlanStatus.SUSPENDED) {
            String why = "load in flux, not planned on (planner.fluctuation_threshold): " + plan.detail();
            LOG.info("window not planned on: {}", why);
            return modelled.withEstimate(estimate).withoutPlan(why);
        }
        LOG.info("window planned: {} move(s), Δ {} -> {}; estimation {} on {} window(s){} ({})", plan.actions().size(),
                plan.before().imbalanceDegree(), plan.predicted().imbalanceDegree(), plan.estimation().model(),
                plan.estimation().windows(), round.conservative() ? ", conservative" : "", plan.detail());
        return new State(w, model, plan, PlanIds.of(plan), modelled.snapshotJson(), modelled.snapshotSha256(), null,
                estimate);
    }

    /**
     * A vnode ring's window, never planned on, pooled with the windows before it while the ring is
     * unchanged ({@link WindowPool}: the add-node advice rests on them all), and served as a
     * snapshot (for the add-node advice offline) when all nodes are up.
     */
    private State observed(Window last, String problem) {
        Window w = observedWindows.add(last);
        try {
            String json = SnapshotCodec.write(builder.snapshot(w));
            return new State(w, null, null, null, json, SnapshotCodec.sha256(json.getBytes(StandardCharsets.UTF_8)), problem,
                    state.estimate());
        } catch (IllegalStateException | IllegalArgumentException e) {
            return new State(w, null, problem + "; no snapshot: " + e.getMessage());
        }
    }

    private void onMoveDone() {
        moves.increment();
        lastJobActivity = Instant.now();
        State s = state;
        state = new State(s.window(), s.model(), null, null, null, null, "the ring changed: waiting for a fresh window",
                s.estimate());
        planning.ringMoved(); // the load moved on purpose: that is not fluctuation
    }

    // ---- what the API sees (http.Daemon) ----

    @Override
    public DaemonView view() {
        State st = state;
        return new DaemonView(config, startedAt, windowCount.get(), firstWindowAt, st.window(), st.model(), st.plan(),
                st.planId(), st.snapshotJson(), st.snapshotSha256(), st.problem(), st.estimate(), observeOnly, loop == null || loop.isAlive() || stop.getCount() == 0,
                jmxAtStart.reachable().size(), executor.paused(), executor.current().orElse(null),
                new DaemonView.Memory(planning.windows(), planning.forecastToCheck(), planning.restored()));
    }

    @Override
    public String metrics() {
        return registry.scrape();
    }

    @Override
    public void pause() {
        executor.pause();
    }

    @Override
    public void resume() {
        executor.resume();
    }

    @Override
    public Optional<Job> job(String id) {
        return executor.job(id);
    }

    @Override
    public java.util.List<Job> jobs() {
        return executor.jobs();
    }

    /**
     * Whether a job ran while {@code w} was measured. Judged under {@link #submitting}, so a window that
     * ends while a submission waits on the lease's round trip sees how it ended: a refused one moved
     * nothing, and the window stands (CassandraSidecarIT once lost its plan to that race).
     */
    private boolean jobRanDuring(Window w) {
        synchronized (submitting) {
            return executor.busy() || !lastJobActivity.isBefore(w.start());
        }
    }

    @Override
    public Job rebalance(Plan plan, String planId, boolean dryRun) {
        synchronized (submitting) {
            return submit(plan, planId, dryRun);
        }
    }

    private Job submit(Plan plan, String planId, boolean dryRun) {
        Instant lastActivity = lastJobActivity;
        Plan lastSubmitted = submitted;
        lastJobActivity = Instant.now();
        submitted = plan; // before the job can end: its end checks this plan's forecast
        Job job;
        try {
            job = executor.submit(plan, planId, dryRun);
        } catch (RuntimeException refused) { // nothing ran (a job still running, the lease held elsewhere): the window stands
            lastJobActivity = lastActivity;
            submitted = lastSubmitted;
            throw refused;
        }
        if (!dryRun) {
            planning.forgetExecuted(); // the ring is about to change: an earlier plan's forecast no longer applies
        }
        return job;
    }

    @Override
    public Optional<Job> abort(String id) {
        return executor.abort(id);
    }

    public int port() {
        return api.port();
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    @Override
    public void close() {
        stop.countDown();
        executor.close();
        if (api != null) {
            api.close();
        }
        if (loop != null) {
            try {
                loop.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        nodes.forEach(n -> n.jmx().close());
        registry.close();
    }
}
