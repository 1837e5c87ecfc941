package io.libra.hbase.balancer;

import io.libra.core.Assessment;
import io.libra.core.PlanRequest;
import io.libra.core.RivalModels;
import io.libra.core.schedule.PlacementRule;
import io.libra.core.PlanResult;
import io.libra.core.estimate.LoadModel;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Balance;
import io.libra.core.apply.PlanApplier;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Reason;
import io.libra.core.plan.NodeForecast;
import io.libra.core.estimate.PredictionCheck;
import java.time.InstantSource;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.reporter.LoadReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.RegionPlan;
import org.apache.hadoop.hbase.master.balancer.BaseLoadBalancer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Libra as HBase's master balancer ({@code hbase.master.loadbalancer.class}). Assignment of new
 * and failed regions stays HBase's own ({@link BaseLoadBalancer}); balancing plans both CPU and
 * disk with the core's cooperative scheduler and returns the moves. Nothing is ever thrown out of
 * the balancer: a failure is logged and the run returns no plan.
 */
public class LibraLoadBalancer extends BaseLoadBalancer {
    private static final Logger LOG = LoggerFactory.getLogger(LibraLoadBalancer.class);

    private final RequestRates rates = new RequestRates();
    private final PayloadSizes sizes = new PayloadSizes();
    private final Set<String> reportedMissing = new HashSet<>();
    private Map<String, String> missingReasons = Map.of();
    private volatile LibraConfig config = LibraConfig.DEFAULT;
    private volatile Planner planner = Planner.builder().build();
    /** The same planner without meters: it finishes each table's plan in by-table mode, where the whole-cluster plan's meters stand. */
    private volatile Planner tablePlanner = Planner.builder().build();
    private volatile ReportSource reports = (servers, cm) -> Map.of();
    private ReportSource reportOverride;
    private volatile DecisionRecorder decisions = DecisionRecorder.off();
    private BalancerMetrics metrics;
    private final GroupState.Groups groups = new GroupState.Groups();
    private volatile Optional<HistoryStore> store = Optional.empty();
    private final Map<TableName, List<RegionPlan>> byTable = new HashMap<>();
    private volatile HBaseSnapshot lastSnapshot;
    private volatile PlanResult lastResult;
    private boolean warnedNoObserver;
    private final InstantSource clock;
    private final SplitRefusals splitRefusals = new SplitRefusals();
    private final RegionDepartures departures = new RegionDepartures(Duration.ZERO);

    /** As HBase creates it ({@code hbase.master.loadbalancer.class}), on the system clock. */
    public LibraLoadBalancer() {
        this(InstantSource.system());
    }

    /** Windows are stamped, and reports judged stale, by {@code clock}. */
    public LibraLoadBalancer(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    protected void loadConf(Configuration conf) {
        super.loadConf(conf);
        if (metrics == null) {
            metrics = meters();
            new SnapshotExport(() -> lastSnapshot == null ? null : lastSnapshot.snapshot()).register();
        }
        try {
            apply(LibraConfig.from(conf, problem -> LOG.warn("Libra config: {}", problem)), conf);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Libra: configuration not applied, keeping {}", config, e);
        }
    }

    private void apply(LibraConfig c, Configuration conf) {
        Planner.Builder b = Planner.builder().strategy(c.strategy()).config(c.scheduler()).estimation(c.estimation());
        // the fluctuation guard is applied per server by the balancer itself (Fluctuation), not by the core
        tablePlanner = b.build();
        planner = b.meterRegistry(plannerMeters()).build();
        ReportSource old = reports;
        reports = reportOverride != null ? reportOverride : new JmxReportSource(
                new ReporterClient(c.reporterTimeout(), c.reporterThreads(), Tls.from(conf, p -> LOG.warn("Libra: {}", p)), clock),
                Tls.scheme(conf), c.reporterPort());
        if (old instanceof JmxReportSource && old != reports) {
            ((JmxReportSource) old).close();
        }
        decisions = DecisionRecorder.from(conf);
        departures.movesTakeUpTo(RegionDepartures.movesTakeUpTo(conf));
        store = c.historyWindows() > 0 && c.historySaved() ? HistoryStore.under(conf, p -> LOG.warn("Libra: {}", p))
                : Optional.empty();
        config = c;
        LOG.info("Libra balancer configured: {}", c);
    }

    /**
     * The registry for the core planner's meters ({@code libra.prediction.error}, …, tagged with
     * the strategy). A reconfigured planner registers its own: the old planner's are removed first,
     * or the registry would keep answering with the old planner's gauges.
     */
    private io.micrometer.core.instrument.MeterRegistry plannerMeters() {
        io.micrometer.core.instrument.MeterRegistry r = metrics.registry();
        r.getMeters().stream().filter(m -> m.getId().getTag("strategy") != null).toList().forEach(r::remove);
        return r;
    }

    /** The meters on the master's JMX; without JMX they are kept in memory only, never failing the master. */
    private static BalancerMetrics meters() {
        try {
            return BalancerMetrics.onJmx();
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Libra: cannot publish meters on JMX, keeping them in memory", e);
            return new BalancerMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        }
    }

    /** Replaces the RegionServers' {@code /jmx} as the source of reports (benchmarks on recorded snapshots). */
    public synchronized void setReportSource(ReportSource source) {
        reportOverride = source;
        reports = source;
    }

    /** The cluster state the last run planned on, or null before the first run. */
    public HBaseSnapshot lastSnapshot() {
        return lastSnapshot;
    }

    /** The whole plan of the last run (this run's moves and splits and what follows them), or null. */
    public PlanResult lastResult() {
        return lastResult;
    }

    /** The configuration in force (for tests and operators' tools). */
    public LibraConfig config() {
        return config;
    }

    @Override
    public synchronized void updateClusterMetrics(ClusterMetrics st) {
        super.updateClusterMetrics(st);
        if (st == null) {
            return;
        }
        try {
            rates.update(st);
            // forget only regions gone from the whole cluster: a run sees one RS group or table at a time
            rates.retainLive(st);
            sizes.retain(RequestRates.liveRegions(st));
            List<Set<String>> gone = groups.retainLive(st.getLiveServerMetrics().keySet());
            store.ifPresent(s -> gone.forEach(s::forget));
        } catch (RuntimeException e) {
            LOG.warn("Libra: could not read request counts from the cluster metrics", e);
        }
    }

    @Override
    protected List<RegionPlan> balanceTable(TableName tableName, Map<ServerName, List<RegionInfo>> loadOfOneTable) {
        if (isByTable) {
            // planned for every table at once in preBalanceCluster
            return new ArrayList<>(byTable.getOrDefault(tableName, List.of()));
        }
        try {
            return balance(loadOfOneTable);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Libra: balancing failed, no plan this run", e);
            return new ArrayList<>();
        }
    }

    /**
     * By-table mode ({@code hbase.master.loadbalance.bytable=true}): HBase then calls
     * {@link #balanceTable} once per table. Libra plans them all here, once per balance call:
     * one pull of the reports, one estimate of the whole cluster, then each table's regions
     * balanced across the servers against that table's own per-server targets, under one move cap.
     */
    @Override
    protected void preBalanceCluster(Map<TableName, Map<ServerName, List<RegionInfo>>> loadOfAllTable) {
        byTable.clear();
        if (!isByTable || loadOfAllTable == null) {
            return;
        }
        try {
            byTable.putAll(balanceByTable(loadOfAllTable));
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Libra: by-table balancing failed, no plan this run", e);
        }
    }

    private Map<TableName, List<RegionPlan>> balanceByTable(Map<TableName, Map<ServerName, List<RegionInfo>>> load) {
        Map<ServerName, List<RegionInfo>> all = toEnsumbleTableLoad(load);
        if (all.size() < MIN_SERVER_BALANCE) {
            return Map.of();
        }
        Run run = begin(all, true);
        LibraConfig c = run.config();
        RunMode mode = run.mode();
        HBaseSnapshot snap = run.snap();
        PlanResult whole = run.result();
        Map<TableName, List<RegionPlan>> out = new HashMap<>();
        List<MoveAction> moves = new ArrayList<>();
        int splits = 0;
        if (whole.plan().isRevert()) {
            moves.addAll(takeBackByTable(run, load.keySet(), out));
        } else if (whole.plan().status() != PlanStatus.SUSPENDED) {
            Budget budget = new Budget(c.maxMovesPerRun(), c.maxSplitsPerRun());
            run.placement().takenBack(run.takenBack());
            // the estimation line heads the first table reported (system tables, all pinned, report nothing)
            List<String> head = head(run);
            for (TableName table : load.keySet()) {
                Translation t = balanceOneTable(table, run.assessment(), snap, run.placement(), budget, mode, c, head);
                moves.addAll(t.moveActions());
                splits += mode.split() ? t.splits().size() : 0;
                out.put(table, mode.execute() ? new ArrayList<>(t.moves()) : new ArrayList<>());
            }
            head.forEach(l -> LOG.info("Libra: {}", l));
        } else {
            report(whole, Translation.of(List.of(), snap, 0), whole.before().balance(), mode, snap, "",
                    List.of(run.estimation()));
        }
        end(run, moves, splits);
        return out;
    }

    /**
     * The whole run's plan takes the last run's moves back (they left the measured Δ worse and
     * the conservative plan found nothing worth moving): each table is handed back its own
     * regions' moves, within the move cap, and the run reports it once. Returns the moves.
     */
    private List<MoveAction> takeBackByTable(Run run, java.util.Set<TableName> tables, Map<TableName, List<RegionPlan>> out) {
        LibraConfig c = run.config();
        PlanResult whole = run.result();
        Translation t = Translation.of(whole.plan().actions(), run.snap(),
                new Translation.Limits(c.maxMovesPerRun(), c.maxSplitsPerRun()), run.placement(), whole.before());
        report(whole, t, predictThisRun(whole, t, c).balance(), run.mode(), run.snap(), "", head(run));
        tables.forEach(table -> out.put(table, new ArrayList<>()));
        if (run.mode().execute()) {
            t.moves().forEach(p -> out.computeIfAbsent(p.getRegionInfo().getTable(), k -> new ArrayList<>()).add(p));
        }
        return t.moveActions();
    }

    /** What one balancer call works on: the group's window, planned once, and its estimation line. */
    private record Run(LibraConfig config, RunMode mode, GroupState group, HBaseSnapshot snap, Placement placement,
                       PlanResult result, Assessment assessment, String estimation, List<MoveAction> takenBack) {
    }

    /** A window's plan and what the planner knew before scheduling it (null when the guard suspended the run). */
    private record Planned(PlanResult result, Assessment assessment) {
    }

    /**
     * Builds the window of these servers and plans on it; the result is what the master's JMX shows.
     * {@code mayTakeBack}: the plan may take the last run's moves back when they left Δ worse (by
     * table too: the moves taken back are then handed to their tables instead of the tables' plans).
     */
    private Run begin(Map<ServerName, List<RegionInfo>> servers, boolean mayTakeBack) {
        LibraConfig c = config;
        GroupState group = groups.of(servers.keySet());
        restore(group);
        HBaseSnapshot snap = snapshot(servers, c);
        Placement placement = new Placement(snap, this::rackOf);
        Instant now = clock.instant();
        Map<String, String> serverOf = new HashMap<>();
        snap.snapshot().regions().forEach(r -> serverOf.put(r.id(), r.node()));
        departures.observe(serverOf, now);
        placement.splitsRefused(region -> splitRefusals.refusal(region, now)
                .or(() -> departures.refusal(region, serverOf.get(region), now)));
        Plan previous = c.historyWindows() > 0 ? previousPlan(group, snap) : null;
        Planned planned = plan(snap, group, placement, c, previous, mayTakeBack);
        PlanResult result = planned.result();
        lastSnapshot = snap;
        lastResult = result;
        // the moves taken back, by the last run or carried on since: by table, no table's plan may repeat them
        List<MoveAction> takenBack = !result.plan().takenBack().isEmpty() || previous == null ? result.plan().takenBack()
                : previous.takenBack();
        return new Run(c, RunMode.of(c), group, snap, placement, result, planned.assessment(),
                EstimationLine.of(result.plan().estimation(), planned.assessment() != null ? planned.assessment().check()
                        : PredictionCheck.of(previous, snap.snapshot(), c.lambda()), result.measuredStep()), takenBack);
    }

    /** A group first seen takes over the history a previous master saved for it. */
    private void restore(GroupState group) {
        if (!group.restored) {
            group.restored = true;
            store.flatMap(s -> s.load(group.servers)).ifPresent(saved -> {
                group.memory.restore(saved);
                departures.takeOver(saved.windows(), saved.carriedOut());
                LOG.info("Libra: history of {} window(s) taken over from the saved one", saved.windows().size());
            });
        }
    }

    /** What heads the run's log lines and decision: the estimation line, then each split withheld and why. */
    private static List<String> head(Run run) {
        List<String> head = new ArrayList<>(List.of(run.estimation()));
        run.placement().withheldSplits().forEach((region, why) -> head.add("split of " + region + " not planned: " + why));
        return head;
    }

    /** The last carried-out plan when this window can check it; a window with modelled servers cannot. */
    private static Plan previousPlan(GroupState group, HBaseSnapshot snap) {
        if (!snap.estimatedNodes().isEmpty()) {
            LOG.info("Libra: last run's forecast not checked: {} server(s) without a fresh report are modelled, "
                    + "not measured", snap.estimatedNodes().size());
            return null;
        }
        return group.memory.toCheck(snap.snapshot(), why -> LOG.info("Libra: {}", why)).orElse(null);
    }

    /**
     * Remembers the window for the fluctuation guard (a window in which regions moved differs from
     * the next by design: only quiet ones are compared) and, for the learnt estimate and the next
     * forecast check, with the plan of the moves the master carries out; exports it if asked.
     */
    private void end(Run run, List<MoveAction> moves, int splits) {
        RunMode mode = run.mode();
        List<MoveAction> done = mode.execute() && !mode.adminDryRun() ? moves : List.of();
        Instant now = clock.instant();
        done.forEach(m -> departures.left(m.region(), m.from(), now));
        run.group().previousWindow = done.isEmpty() ? run.snap().snapshot() : null;
        // a window with servers modelled from counters holds Libra's own guess: nothing to learn from
        ClusterSnapshot learnable = run.snap().estimatedNodes().isEmpty() ? run.snap().snapshot() : null;
        if (learnable != null && run.assessment() != null) {
            run.group().memory.estimated(run.result().plan().estimation());
        }
        if (done.isEmpty() && splits == 0 && PredictionCheck.heldBack(run.result().plan(), run.config().lambda())) {
            run.group().memory.heldBack(learnable, run.result().plan(), run.config().historyWindows());
        } else {
            run.group().memory.remember(learnable, done.isEmpty() ? null : carriedOut(run.result(), done, run.config()),
                    splits, run.config().historyWindows());
        }
        store.ifPresent(s -> {
            s.save(run.group().servers, run.group().memory.state());
            s.cleanUp(clock.instant(), run.config().historyFileMaxAge());
        });
        exportIfAsked(run.snap(), mode, run.config());
    }

    /**
     * The plan of the moves carried out, with the forecast of each node's load after them alone. A
     * revert keeps the forecast it carries (that of the moves it took back), as in the core.
     */
    private static Plan carriedOut(PlanResult r, List<MoveAction> done, LibraConfig c) {
        LoadModel after = predict(r.before(), done, c);
        if (after == null) {
            return null;
        }
        List<NodeForecast> forecast = r.plan().isRevert() && !r.plan().forecast().isEmpty() ? r.plan().forecast()
                : after.forecast();
        return new Plan(r.plan().strategy(), List.copyOf(done), r.before().balance(), after.balance(), r.plan().status(),
                "moves returned to the master", forecast, r.plan().estimation(), r.plan().takenBack());
    }

    /** Moves and splits left for the rest of a by-table call. */
    private static final class Budget {
        int moves;
        int splits;

        Budget(int moves, int splits) {
            this.moves = moves > 0 ? moves : Integer.MAX_VALUE;
            this.splits = splits > 0 ? splits : Integer.MAX_VALUE;
        }
    }

    /**
     * One table's plan on the shared estimate: that table's regions only, its own per-server
     * targets, as conservative as the whole run after a missed forecast (the plan's detail says so).
     */
    private Translation balanceOneTable(TableName table, Assessment run, HBaseSnapshot snap, Placement placement,
                                        Budget budget, RunMode mode, LibraConfig c, List<String> head) {
        String name = table.getNameAsString();
        if (budget.moves <= 0 || run.model().regions().stream().noneMatch(r -> r.region().table().equals(name))) {
            return Translation.of(List.of(), snap, 0);
        }
        PlanResult result = TableModels.plan(tablePlanner, run, name, placement.forScheduler(), clock);
        Translation planned = Translation.of(result.plan().actions(), snap, new Translation.Limits(budget.moves,
                budget.splits == Integer.MAX_VALUE ? 0 : budget.splits), placement, result.before());
        Translation t = withRegionCounts(planned, result, snap, placement, c, budget.moves,
                r -> r.table().equals(name));
        budget.moves -= t.moves().size();
        budget.splits -= t.splits().size();
        report(result, t, predictThisRun(result, t, c).balance(), mode, snap, "table " + name + ": ",
                head);
        head.clear();
        if (mode.split()) {
            requestSplits(t.splits());
        }
        return t;
    }

    /**
     * What this run may do. {@code adminDryRun}: the caller asked for a dry run (the master will
     * not execute); {@code execute}: moves are returned; {@code split}: splits are requested.
     */
    private record RunMode(Optional<Boolean> requestDryRun, boolean adminDryRun, boolean execute, boolean split) {
        static RunMode of(LibraConfig c) {
            Optional<Boolean> requested = BalanceRequestContext.dryRun();
            boolean adminDryRun = requested.orElse(false);
            return new RunMode(requested, adminDryRun, !c.dryRun() || adminDryRun,
                    c.splitting() && !c.dryRun() && requested.isPresent() && !adminDryRun);
        }
    }

    private List<RegionPlan> balance(Map<ServerName, List<RegionInfo>> assignment) {
        if (assignment == null || assignment.size() < MIN_SERVER_BALANCE) {
            return new ArrayList<>();
        }
        Run run = begin(assignment, true);
        LibraConfig c = run.config();
        RunMode mode = run.mode();
        HBaseSnapshot snap = run.snap();
        Placement placement = run.placement();
        PlanResult result = run.result();
        if (!mode.split() && result.plan().count("split") > 0) {
            // the moves of existing regions still stand; the splits and what follows them wait
            warnNoObserver(mode.requestDryRun(), c);
        }
        Translation planned = Translation.of(result.plan().actions(), snap,
                new Translation.Limits(c.maxMovesPerRun(), c.maxSplitsPerRun()), placement, result.before());
        Translation t = withRegionCounts(planned, result, snap, placement, c, c.maxMovesPerRun(), r -> true);
        Balance thisRun = predictThisRun(result, t, c).balance();
        report(result, t, thisRun, mode, snap, "", head(run));
        if (mode.split()) {
            requestSplits(t.splits());
        }
        end(run, t.moveActions(), mode.split() ? t.splits().size() : 0);
        return mode.execute() ? new ArrayList<>(t.moves()) : new ArrayList<>();
    }

    /**
     * Plans on the window and the group's history, system regions pinned, after the fluctuation
     * guard ({@link Fluctuation}) compared it with the group's previous quiet window; the
     * {@code previous} plan's forecast is checked against the window, and when {@code mayTakeBack}
     * its moves are taken back if they left Δ worse and nothing else qualifies.
     */
    private Planned plan(HBaseSnapshot snap, GroupState group, Placement placement, LibraConfig c, Plan previous,
                         boolean mayTakeBack) {
        ClusterSnapshot quiet = c.fluctuationGuard() > 0 ? group.previousWindow : null;
        Fluctuation flux = Fluctuation.between(quiet, snap.snapshot(), c.fluctuationGuard());
        if (flux.suspends()) {
            LoadModel model = planner.estimate(snap.snapshot());
            return new Planned(new PlanResult(Plan.empty(planner.strategy().name(), model.balance(), PlanStatus.SUSPENDED,
                    "fluctuation guard: " + flux.describe()), model, model, java.time.Duration.ZERO), null);
        }
        placement.hold(flux.nodes().keySet());
        if (!flux.nodes().isEmpty()) {
            LOG.info("Libra: fluctuation guard holds {} server(s) still this run: {}", flux.nodes().size(), flux.nodes());
        }
        List<ClusterSnapshot> history = c.historyWindows() > 0
                ? group.memory.history(snap.snapshot(), why -> LOG.info("Libra: {}", why)) : List.of();
        // the guard is the balancer's own, per server (above); the assessment is kept for by-table plans
        Assessment a = planner.assess(new PlanRequest(snap.snapshot(), history, previous, false)
                .withOwnLoad(group.memory.ownLoad()).withFlowError(group.memory.flowError()), placement::pin);
        PlacementRule rule = placement.forScheduler();
        RivalModels.Choice chosen = planner.outcome(a, planner.context(a, rule));
        return new Planned(planner.finish(chosen.outcome(), chosen.assessment(), mayTakeBack ? previous : null, rule),
                chosen.assessment());
    }

    /** The region-count band's moves on the state this run's load moves leave, within the move cap. */
    private static Translation withRegionCounts(Translation t, PlanResult result, HBaseSnapshot snap,
                                                Placement placement, LibraConfig c, int maxMoves,
                                                java.util.function.Predicate<io.libra.core.model.Region> counted) {
        int budget = maxMoves > 0 && maxMoves != Integer.MAX_VALUE ? maxMoves - t.moves().size() : snap.regions().size();
        if (budget <= 0) {
            return t;
        }
        Map<String, Integer> counts = new HashMap<>();
        Map<String, Double> sizes = new HashMap<>();
        snap.servers().keySet().forEach(n -> counts.put(n, 0));
        for (io.libra.core.model.Region r : snap.snapshot().regions()) {
            if (counted.test(r)) {
                counts.merge(r.node(), 1, Integer::sum);
                sizes.put(r.id(), r.sizeBytes());
            }
        }
        for (MoveAction m : t.moveActions()) {
            counts.merge(m.from(), -1, Integer::sum);
            counts.merge(m.to(), 1, Integer::sum);
        }
        List<MoveAction> extra = new RegionCountBand(c.regionCountBand(), c.lambda()).moves(
                predictThisRun(result, t, c), counts, placement, t.touched(), sizes, budget);
        return extra.isEmpty() ? t : t.withMoves(extra, snap);
    }

    /**
     * The rack of a server when a topology is configured ({@code net.topology.script.file.name} or
     * {@code net.topology.node.switch.mapping.impl}); one rack otherwise, without asking HBase's
     * RackManager, which would resolve every host name for nothing.
     */
    private String rackOf(String serverName) {
        Configuration conf = getConf();
        String mapping = conf == null ? null : conf.get(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY);
        boolean topology = conf != null && (conf.get(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY) != null
                || mapping != null && !mapping.equals(ScriptBasedMapping.class.getName()));
        try {
            return !topology || rackManager == null ? "" : rackManager.getRack(ServerName.valueOf(serverName));
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** A dry run the caller asked for writes its window into {@code hbase.libra.snapshot.dir}, when set. */
    private static void exportIfAsked(HBaseSnapshot snap, RunMode mode, LibraConfig c) {
        if (!mode.adminDryRun() || c.snapshotDir().isEmpty()) {
            return;
        }
        try {
            LOG.info("Libra: snapshot of this window written to {}",
                    SnapshotExport.writeInto(java.nio.file.Path.of(c.snapshotDir()), snap.snapshot()));
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("Libra: cannot write the snapshot into {} ({}): {}", LibraConfig.SNAPSHOT_DIR, c.snapshotDir(),
                    e.toString());
        }
    }

    /** One log line for the run, {@code head} (the estimation), one line per action, the decision record and the meters. */
    private void report(PlanResult result, Translation t, Balance thisRun, RunMode mode, HBaseSnapshot snap,
                        String prefix, List<String> head) {
        List<String> lines = new ArrayList<>(head);
        lines.addAll(describe(result, t, snap));
        double bytesMoved = t.bytesMoved(snap);
        String outcome = prefix + outcome(result, t, thisRun, mode.adminDryRun(), mode.execute(), mode.split())
                + String.format(Locale.ROOT, "; store files moved %.1f MiB", bytesMoved / (1 << 20));
        LOG.info("Libra: {}", outcome);
        lines.forEach(l -> LOG.info("Libra: {}", l));
        metrics.planned(result, thisRun, mode.execute() ? t.moves().size() : 0, mode.split() ? t.splits().size() : 0,
                snap.estimatedNodes().size(), mode.execute() ? bytesMoved : 0);
        decisions.record(result, lines, outcome);
    }

    private void warnNoObserver(Optional<Boolean> requestDryRun, LibraConfig c) {
        if (requestDryRun.isEmpty() && !c.dryRun() && !warnedNoObserver) {
            warnedNoObserver = true;
            LOG.warn("Libra: splits planned but {} is not loaded (hbase.coprocessor.master.classes), so Libra cannot "
                    + "tell a dry run from a real one: it returns the moves of existing regions and does not split",
                    LibraMasterObserver.class.getName());
        }
    }

    private HBaseSnapshot snapshot(Map<ServerName, List<RegionInfo>> assignment, LibraConfig c) {
        ClusterMetrics cm = clusterStatus;
        Map<String, LoadReport> reports = freshReports(assignment.keySet(), cm, c);
        HBaseSnapshot snap = new SnapshotBuilder(c.estimation(), c.defaultCpuCores())
                .build(assignment, cm, rates, reports, clock.instant(), sizes);
        noteMissing(snap.estimatedNodes());
        return snap;
    }

    /** The reports no older than {@code hbase.libra.reporter.stale.after.ms}; the others' reasons in {@link #missingReasons}. */
    private Map<String, LoadReport> freshReports(Set<ServerName> servers, ClusterMetrics cm, LibraConfig c) {
        ReporterClient.Pull pull = reports.pull(servers, cm);
        Map<String, LoadReport> fresh = new HashMap<>(pull.reports());
        Map<String, String> missing = new HashMap<>(pull.missing());
        long oldest = clock.millis() - c.staleAfter().toMillis();
        fresh.values().removeIf(r -> {
            boolean stale = r.updatedAtMillis() < oldest;
            if (stale) {
                missing.put(r.serverName(), "report of " + Instant.ofEpochMilli(r.updatedAtMillis())
                        + " is older than hbase.libra.reporter.stale.after.ms (" + c.staleAfter().toMillis() + " ms)");
            }
            return stale;
        });
        missingReasons = missing;
        return fresh;
    }

    /**
     * Logs once when a server's report goes missing, and once when it is back. Such a server is
     * modelled from the master's request counters, never below the reporting servers' mean, and
     * is never a destination: its regions leave only if those counters show it hot.
     */
    private void noteMissing(List<String> estimated) {
        for (String node : estimated) {
            if (reportedMissing.add(node)) {
                LOG.warn("Libra: no fresh CPU/disk report from {}: {}; modelling it from the master's request "
                        + "counters (not below the cluster mean) and never moving regions to it until its report "
                        + "is back", node, missingReasons.getOrDefault(node, "no report"));
            }
        }
        for (String node : new ArrayList<>(reportedMissing)) {
            if (!estimated.contains(node)) {
                reportedMissing.remove(node);
                LOG.info("Libra: CPU/disk report from {} is back", node);
            }
        }
    }

    /** The state the moves returned this run leave, as the planner estimates it (the plan may hold more). */
    private static LoadModel predictThisRun(PlanResult r, Translation t, LibraConfig c) {
        LoadModel after = predict(r.before(), t.moveActions(), c);
        return after == null ? r.predicted() : after;
    }

    /** The state {@code moves} leave, or null when they do not apply to {@code before}. */
    private static LoadModel predict(LoadModel before, List<MoveAction> moves, LibraConfig c) {
        try {
            return new PlanApplier(c.estimation()).apply(before, moves);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String outcome(PlanResult r, Translation t, Balance thisRun, boolean adminDryRun, boolean execute,
                                  boolean split) {
        String mode = adminDryRun ? "dry run requested by the caller" : !execute ? "dry run (hbase.libra.dry.run=true)" : "executing";
        Balance b = r.before().balance();
        Balance p = r.predicted().balance();
        return String.format(Locale.ROOT, "%s plan %s (%s): %d moves, %d splits%s, %d deferred; "
                        + "cpu max/mean %.3f -> %.3f (whole plan %.3f), disk max/mean %.3f -> %.3f (whole plan %.3f), "
                        + "delta %.3f -> %.3f (whole plan %.3f) in %d ms; %s",
                r.plan().strategy(), r.plan().status(), r.plan().detail() == null ? "" : r.plan().detail(),
                t.moves().size(), t.splits().size(), split || t.splits().isEmpty() ? "" : " (not requested)",
                t.deferred().size(), b.cpuMaxOverMean(), thisRun.cpuMaxOverMean(), p.cpuMaxOverMean(),
                b.diskMaxOverMean(), thisRun.diskMaxOverMean(), p.diskMaxOverMean(),
                b.imbalanceDegree(), thisRun.imbalanceDegree(), p.imbalanceDegree(), r.planTime().toMillis(), mode);
    }

    /** One line per action with its reason, in the plan's order. */
    private List<String> describe(PlanResult r, Translation t, HBaseSnapshot snap) {
        List<String> lines = new ArrayList<>();
        for (Translation.Split s : t.splits()) {
            lines.add(String.format(Locale.ROOT, "split table: %s, region: %s at %s; %s",
                    s.region().getTable(), s.region().getEncodedName(), s.action().splitKey(), reason(s.action().reason())));
        }
        for (int i = 0; i < t.moves().size(); i++) {
            RegionPlan p = t.moves().get(i);
            MoveAction m = t.moveActions().get(i);
            lines.add(String.format(Locale.ROOT, "table: %s, region: %s, source: %s, destination: %s; %s",
                    p.getRegionInfo().getTable(), p.getRegionInfo().getEncodedName(), p.getSource(), p.getDestination(),
                    reason(m.reason())));
        }
        for (String node : snap.estimatedNodes()) {
            lines.add("no fresh report from " + node + ": " + missingReasons.getOrDefault(node, "no report")
                    + "; modelled from request counters, not a destination");
        }
        Map<String, Long> deferred = new java.util.TreeMap<>();
        t.deferred().forEach(d -> deferred.merge(d.substring(d.indexOf(": ") + 2), 1L, Long::sum));
        deferred.forEach((why, n) -> lines.add("deferred " + n + " action(s): " + why));
        return lines;
    }

    private static String reason(Reason reason) {
        if (reason == null) {
            return "no reason given";
        }
        return reason.criticalDimension() + " critical, passed " + reason.passed()
                + (reason.note() == null ? "" : "; " + reason.note());
    }

    private void requestSplits(List<Translation.Split> splits) {
        for (Translation.Split s : splits) {
            try {
                long procId = services.splitRegion(s.region(), s.splitKey(), HConstants.NO_NONCE, HConstants.NO_NONCE);
                LOG.info("Libra: split of {} at {} requested (procedure {}); its moves follow in a later run",
                        s.region().getEncodedName(), s.action().splitKey(), procId);
            } catch (java.io.IOException | RuntimeException e) {
                String why = firstLine(e.getMessage());
                LOG.warn("Libra: split of {} at {} refused: {}; not planned again for {} s", s.region().getEncodedName(),
                        s.action().splitKey(), why, SplitRefusals.RETRY_AFTER.toSeconds());
                splitRefusals.refused(s.region().getEncodedName(), why, clock.instant());
            }
        }
    }

    /** An exception message's first line (a remote exception's message may carry its stack trace). */
    private static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "no reason given";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message.strip() : message.substring(0, nl).strip();
    }

    @Override
    public void stop(String why) {
        super.stop(why);
        if (metrics != null) {
            metrics.close();
        }
        SnapshotExport.unregister();
        if (reports instanceof JmxReportSource) {
            ((JmxReportSource) reports).close();
        }
    }
}
