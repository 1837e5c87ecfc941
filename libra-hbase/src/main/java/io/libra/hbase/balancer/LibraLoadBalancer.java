package io.libra.hbase.balancer;

import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Reason;
import io.libra.hbase.LibraConfig;
import io.libra.hbase.reporter.LoadReport;
import java.net.URI;
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
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerMetrics;
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
    private final Set<String> reportedMissing = new HashSet<>();
    private volatile LibraConfig config = LibraConfig.DEFAULT;
    private volatile Planner planner;
    private volatile ReporterClient reporters;
    private volatile DecisionRecorder decisions;
    private BalancerMetrics metrics;
    private ClusterSnapshot previousWindow;
    private boolean warnedNoObserver;

    @Override
    protected void loadConf(Configuration conf) {
        super.loadConf(conf);
        LibraConfig c = LibraConfig.from(conf, problem -> LOG.warn("Libra config: {}", problem));
        Planner.Builder b = Planner.builder().strategy(c.strategy()).config(c.scheduler()).estimation(c.estimation());
        if (c.fluctuationGuard() > 0) {
            b.fluctuationGuard(new FluctuationGuard(c.fluctuationGuard()));
        }
        planner = b.build();
        reporters = new ReporterClient(c.reporterTimeout());
        decisions = DecisionRecorder.from(conf);
        config = c;
        if (metrics == null) {
            metrics = BalancerMetrics.onJmx();
        }
        LOG.info("Libra balancer configured: {}", c);
    }

    /** The configuration in force (for tests and operators' tools). */
    public LibraConfig config() {
        return config;
    }

    @Override
    public synchronized void updateClusterMetrics(ClusterMetrics st) {
        super.updateClusterMetrics(st);
        try {
            rates.update(st);
        } catch (RuntimeException e) {
            LOG.warn("Libra: could not read request counts from the cluster metrics", e);
        }
    }

    @Override
    protected List<RegionPlan> balanceTable(TableName tableName, Map<ServerName, List<RegionInfo>> loadOfOneTable) {
        try {
            return balance(loadOfOneTable);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Libra: balancing failed, no plan this run", e);
            return new ArrayList<>();
        }
    }

    private List<RegionPlan> balance(Map<ServerName, List<RegionInfo>> assignment) {
        if (assignment == null || assignment.size() < MIN_SERVER_BALANCE) {
            return new ArrayList<>();
        }
        LibraConfig c = config;
        HBaseSnapshot snap = snapshot(assignment, c);
        Optional<ClusterSnapshot> previous = c.fluctuationGuard() > 0 ? Optional.ofNullable(previousWindow) : Optional.empty();
        PlanResult result = planner.plan(snap.snapshot(), previous);
        Translation t = Translation.of(result.plan().actions(), snap, c.maxMovesPerRun());
        Optional<Boolean> requestDryRun = BalanceRequestContext.dryRun();
        boolean adminDryRun = requestDryRun.orElse(false);
        boolean execute = !c.dryRun() || adminDryRun;
        boolean split = !c.dryRun() && requestDryRun.isPresent() && !adminDryRun;
        List<String> lines = describe(result, t, snap);
        String outcome = outcome(result, t, c, adminDryRun, execute, split);
        LOG.info("Libra: {}", outcome);
        lines.forEach(l -> LOG.info("Libra: {}", l));
        if (split) {
            requestSplits(t.splits());
        } else if (!t.splits().isEmpty() && requestDryRun.isEmpty() && !c.dryRun() && !warnedNoObserver) {
            warnedNoObserver = true;
            LOG.warn("Libra: splits planned but {} is not loaded (hbase.coprocessor.master.classes), so Libra "
                    + "cannot tell a dry run from a real one and does not split", LibraMasterObserver.class.getName());
        }
        metrics.planned(result, execute ? t.moves().size() : 0, split ? t.splits().size() : 0, snap.estimatedNodes().size());
        decisions.record(result, lines, outcome);
        previousWindow = t.moves().isEmpty() || !execute || adminDryRun ? snap.snapshot() : null;
        return execute ? new ArrayList<>(t.moves()) : new ArrayList<>();
    }

    private HBaseSnapshot snapshot(Map<ServerName, List<RegionInfo>> assignment, LibraConfig c) {
        ClusterMetrics cm = clusterStatus;
        Map<String, LoadReport> reports = freshReports(assignment.keySet(), cm, c);
        HBaseSnapshot snap = new SnapshotBuilder(c.estimation(), c.defaultCpuCores())
                .build(assignment, cm, rates, reports, Instant.now());
        noteMissing(snap.estimatedNodes());
        rates.retain(snap.regions().keySet());
        return snap;
    }

    private Map<String, LoadReport> freshReports(Set<ServerName> servers, ClusterMetrics cm, LibraConfig c) {
        Map<String, URI> endpoints = new HashMap<>();
        for (ServerName sn : servers) {
            ServerMetrics sm = cm == null ? null : cm.getLiveServerMetrics().get(sn);
            int port = c.reporterPort() > 0 ? c.reporterPort() : sm == null ? -1 : sm.getInfoServerPort();
            if (port > 0) {
                endpoints.put(sn.getServerName(), URI.create("http://" + sn.getHostname() + ":" + port + "/"));
            }
        }
        Map<String, LoadReport> reports = new HashMap<>(reporters.fetch(endpoints));
        long oldest = System.currentTimeMillis() - c.staleAfter().toMillis();
        reports.values().removeIf(r -> r.updatedAtMillis() < oldest);
        return reports;
    }

    /** Logs once when a server starts being estimated from counters, and once when its report is back. */
    private void noteMissing(List<String> estimated) {
        for (String node : estimated) {
            if (reportedMissing.add(node)) {
                LOG.warn("Libra: no fresh CPU/disk report from {} (reporter not loaded, info port unreachable or "
                        + "report older than {}); estimating it from request counters", node, config.staleAfter());
            }
        }
        for (String node : new ArrayList<>(reportedMissing)) {
            if (!estimated.contains(node)) {
                reportedMissing.remove(node);
                LOG.info("Libra: CPU/disk report from {} is back", node);
            }
        }
    }

    private static String outcome(PlanResult r, Translation t, LibraConfig c, boolean adminDryRun, boolean execute,
                                  boolean split) {
        String mode = adminDryRun ? "dry run requested by the caller" : !execute ? "dry run (hbase.libra.dry.run=true)" : "executing";
        return String.format(Locale.ROOT, "%s plan %s (%s): %d moves, %d splits%s, %d deferred; "
                        + "cpu max/mean %.3f -> %.3f, disk max/mean %.3f -> %.3f, delta %.3f -> %.3f in %d ms; %s",
                r.plan().strategy(), r.plan().status(), r.plan().detail() == null ? "" : r.plan().detail(),
                t.moves().size(), t.splits().size(), split || t.splits().isEmpty() ? "" : " (not requested)",
                t.deferred().size(), r.before().balance().cpuMaxOverMean(), r.predicted().balance().cpuMaxOverMean(),
                r.before().balance().diskMaxOverMean(), r.predicted().balance().diskMaxOverMean(),
                r.before().balance().imbalanceDegree(), r.predicted().balance().imbalanceDegree(),
                r.planTime().toMillis(), mode);
    }

    /** One line per action with its reason, in the plan's order. */
    private static List<String> describe(PlanResult r, Translation t, HBaseSnapshot snap) {
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
        t.deferred().forEach(d -> lines.add("deferred " + d));
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
                LOG.warn("Libra: split of {} at {} refused: {}", s.region().getEncodedName(), s.action().splitKey(),
                        e.getMessage());
            }
        }
    }

    @Override
    public void stop(String why) {
        super.stop(why);
        if (metrics != null) {
            metrics.close();
        }
    }
}
