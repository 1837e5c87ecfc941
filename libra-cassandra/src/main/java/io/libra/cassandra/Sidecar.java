package io.libra.cassandra;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.collect.Collector;
import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.Executor;
import io.libra.cassandra.exec.Journal;
import io.libra.cassandra.http.ApiServer;
import io.libra.cassandra.http.Json;
import io.libra.cassandra.jmx.CassandraNode;
import io.libra.cassandra.jmx.JmxNode;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.Dimension;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingPlannerConfig;
import io.libra.core.ring.Tokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.libra.cassandra.config.StartupException;
import io.libra.cassandra.jmx.JmxProbe;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon: a loop that measures a window, models the ring and plans; an executor for
 * rebalance jobs; the HTTP API. Plans only on complete windows during which no job ran.
 */
public final class Sidecar implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);
    private final SidecarConfig config;
    private final List<CassandraNode> nodes = new ArrayList<>();
    private final Collector collector;
    private final RingModelBuilder builder;
    private final RingPlanner planner;
    private final Executor executor;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter windows;
    private final Counter moves;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Instant startedAt = Instant.now();
    private final AtomicInteger windowCount = new AtomicInteger();
    private volatile State state = new State(null, null, null, "no window measured yet");
    private volatile Instant lastJobActivity = Instant.EPOCH;
    private volatile double lastDelta;
    private Thread loop;
    private ApiServer api;
    private JmxProbe.Report jmxAtStart = JmxProbe.Report.NONE;
    private Instant firstWindowAt;
    private final MultiGauge nodeCpu;
    private final MultiGauge nodeDisk;

    /** What the latest window produced. */
    record State(Window window, RingModel model, RingPlan plan, String problem) {
    }

    public Sidecar(SidecarConfig config) {
        this.config = config;
        for (SidecarConfig.Instance in : config.instances) {
            nodes.add(new CassandraNode(new JmxNode(in, config.jmx)));
        }
        this.collector = new Collector(nodes, config);
        this.builder = new RingModelBuilder(config.collection.subrangesPerArc, EstimationConfig.DEFAULT);
        this.planner = new RingPlanner(new RingPlannerConfig(config.planner.lambda, config.planner.maxMoves,
                config.planner.maxMoveBytes, config.planner.slicesPerSubrange, config.planner.minImprovement));
        this.executor = new Executor(nodes, config, new Journal(Path.of(config.execution.journal)), j -> onMoveDone());
        this.windows = Counter.builder("libra_cassandra_windows").description("Measurement windows completed")
                .register(registry);
        this.moves = Counter.builder("libra_cassandra_token_moves")
                .description("Token moves completed by rebalance jobs").register(registry);
        Gauge.builder("libra_cassandra_job_running", executor, e -> e.busy() ? 1 : 0)
                .description("1 while a rebalance job runs or waits, else 0").register(registry);
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
            api = new ApiServer(config.http.host, config.http.port, new io.libra.cassandra.http.Api(this));
            jmxAtStart = JmxProbe.probe(nodes);
            if (requireJmx && jmxAtStart.reachable().isEmpty()) {
                throw new StartupException("JMX: no node answers: " + jmxAtStart.failuresLine()
                        + " (is Cassandra running, and its JMX reachable from here? see docs/cassandra.md)");
            }
            jmxAtStart.failures().forEach((id, why) -> LOG.warn("node {} does not answer over JMX: {}", id, why));
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

    /** What JMX said at startup. */
    public JmxProbe.Report jmxAtStart() {
        return jmxAtStart;
    }

    /** When the first window should be measured (start + collection.window_seconds). */
    public Instant firstWindowAt() {
        return firstWindowAt;
    }

    public int port() {
        return api.port();
    }

    private void runLoop() {
        while (stop.getCount() > 0) {
            try {
                Window w = collector.collect(stop);
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
                state = new State(state.window(), null, null, "window failed: " + e.getMessage());
            }
        }
    }

    private State evaluate(Window w) {
        List<String> problems = new ArrayList<>(w.problems());
        if (executor.busy() || !lastJobActivity.isBefore(w.start())) {
            problems.add("a rebalance job ran during the window: its load is not planned on");
        }
        if (!problems.isEmpty()) {
            LOG.info("window not planned on: {}", String.join("; ", problems));
            return new State(w, null, null, String.join("; ", problems));
        }
        RingModel model = builder.build(w);
        RingPlan plan = planner.plan(model.ring());
        LOG.info("window planned: {} move(s), Δ {} -> {} ({})", plan.moves().size(), plan.before().imbalanceDegree(),
                plan.predicted().imbalanceDegree(), plan.detail());
        return new State(w, model, plan, null);
    }

    private void onMoveDone() {
        moves.increment();
        lastJobActivity = Instant.now();
        state = new State(state.window(), state.model(), null, "the ring changed: waiting for a fresh window");
    }

    // ---- views for the API ----

    public SidecarConfig config() {
        return config;
    }

    public Executor executor() {
        return executor;
    }

    public String scrape() {
        return registry.scrape();
    }

    /** Up while the measuring loop runs (or before it started); what a service manager polls. */
    public ObjectNode health() {
        ObjectNode o = Json.object();
        boolean alive = loop == null || loop.isAlive() || stop.getCount() == 0;
        o.put("status", alive ? "up" : "down");
        o.put("windows", windowCount.get());
        if (firstWindowAt != null && windowCount.get() == 0) {
            o.put("firstWindowAt", firstWindowAt.toString());
        }
        Window w = state.window();
        if (w != null) {
            o.put("windowEnd", w.end().toString());
            o.put("nodesAnswering", w.nodes().stream().filter(Window.NodeStat::up).count());
        } else {
            o.put("nodesAnswering", jmxAtStart.reachable().size());
        }
        o.put("nodes", nodes.size());
        o.put("jobRunning", executor.busy());
        if (!alive) {
            o.put("problem", "the measuring loop stopped: see the log");
        }
        return o;
    }

    public ObjectNode status() {
        State s = state;
        ObjectNode o = Json.object();
        o.put("cluster", config.clusterName);
        o.put("startedAt", startedAt.toString());
        o.put("windows", windowCount.get());
        o.put("dryRun", config.execution.dryRun);
        o.put("paused", executor.paused());
        o.put("plannable", s.problem() == null);
        if (s.problem() != null) {
            o.put("problem", s.problem());
        }
        ArrayNode ns = o.putArray("nodes");
        for (SidecarConfig.Instance in : config.instances) {
            ObjectNode n = ns.addObject();
            n.put("id", in.id);
            n.put("host", in.host);
            n.put("jmxPort", in.jmxPort);
            Window.NodeStat st = s.window() == null ? null
                    : s.window().nodes().stream().filter(x -> x.id().equals(in.id)).findFirst().orElse(null);
            if (st != null) {
                n.put("up", st.up());
                n.put("mode", st.mode());
                if (st.token() != null) {
                    n.put("token", Tokens.toKey(st.token()));
                    n.put("tokenDecimal", Long.toString(st.token()));
                }
                n.put("diskSource", st.diskSource());
                n.put("cpuCores", st.cpuUsage());
                n.put("diskBytesPerSec", st.diskBytesPerSec());
                if (st.error() != null) {
                    n.put("error", st.error());
                }
            }
        }
        if (s.window() != null) {
            ArrayNode ts = o.putArray("tables");
            for (Window.TableStat t : s.window().tables()) {
                ObjectNode x = ts.addObject();
                x.put("table", t.keyspace() + "." + t.table());
                x.put("replicationFactor", t.replicationFactor());
                x.put("node", t.node());
                x.put("readOps", t.readOps());
                x.put("writeOps", t.writeOps());
                x.put("bytes", t.liveBytes());
            }
            o.put("windowEnd", s.window().end().toString());
            o.put("sampledOps", s.window().sampledOps());
            o.put("requestOps", s.window().requestOps());
        }
        executor.current().ifPresent(j -> o.set("job", Json.MAPPER.valueToTree(j)));
        return o;
    }

    public ObjectNode load() {
        State s = state;
        ObjectNode o = Json.object();
        if (s.model() == null) {
            o.put("available", false);
            o.put("problem", s.problem());
            return o;
        }
        o.put("available", true);
        LoadModel m = s.model().load();
        ArrayNode ns = o.putArray("nodes");
        for (int j = 0; j < m.nodeCount(); j++) {
            ObjectNode n = ns.addObject();
            n.put("id", m.nodes().get(j).id());
            n.put("cpu", m.load(j, Dimension.CPU));
            n.put("disk", m.load(j, Dimension.DISK));
            n.put("normalizedCpu", m.normalized(j, Dimension.CPU));
            n.put("normalizedDisk", m.normalized(j, Dimension.DISK));
        }
        Json.balance(o.putObject("balance"), m.balance());
        ArrayNode rs = o.putArray("subRanges");
        for (RingModel.SubRange sr : s.model().subRanges()) {
            ObjectNode r = rs.addObject();
            r.put("id", sr.id());
            r.put("start", Tokens.toKey(sr.start()));
            r.put("end", Tokens.toKey(sr.end()));
            ArrayNode replicas = r.putArray("replicas");
            for (RegionLoad rl : m.regions()) {
                if (sr.id().equals(rl.region().rangeId())) {
                    ObjectNode x = replicas.addObject();
                    x.put("table", rl.region().table());
                    x.put("node", rl.node());
                    x.put("readOps", rl.region().counters().readOps());
                    x.put("writeOps", rl.region().counters().writeOps());
                    x.put("cpu", rl.cpu());
                    x.put("disk", rl.disk());
                }
            }
        }
        return o;
    }

    public ObjectNode plan() {
        State s = state;
        if (s.plan() == null) {
            ObjectNode o = Json.object();
            o.put("format", "libra.plan/v1");
            o.put("status", "unavailable");
            o.put("detail", s.problem());
            o.putArray("actions");
            return o;
        }
        return Json.plan(s.plan(), null);
    }

    /** The current plan, if it has moves. */
    public RingPlan currentPlan() {
        return state.plan();
    }

    public String planProblem() {
        return state.problem();
    }

    public void jobStarted() {
        lastJobActivity = Instant.now();
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
