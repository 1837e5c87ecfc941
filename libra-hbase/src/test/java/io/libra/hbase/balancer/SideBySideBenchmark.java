package io.libra.hbase.balancer;

import io.libra.core.sim.CostModel;
import io.libra.core.sim.RegionTraffic;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import io.libra.core.sim.SimCluster;
import io.libra.core.sim.SimRegion;
import io.libra.core.sim.Simulator;
import io.libra.core.sim.Workload;
import io.libra.core.PlanResult;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Keys;
import io.libra.core.model.Region;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.SplitAction;
import io.libra.hbase.LibraConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.LoadBalancer;
import org.apache.hadoop.hbase.master.RegionPlan;
import org.apache.hadoop.hbase.master.balancer.StochasticLoadBalancer;

/**
 * Side by side with HBase's StochasticLoadBalancer on identical input, outside any cluster: a
 * simulator scenario gives the hidden truth and the snapshot a store would report; both
 * balancers get the same {@code ClusterMetrics} (and Libra the same RegionServer reports) built
 * from that snapshot; every resulting layout is scored on the simulator's hidden cost model.
 *
 * <pre>
 * ./mvnw -B -q -pl libra-hbase test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.libra.hbase.balancer.SideBySideBenchmark \
 *   -Dexec.args="paper-mixgraph paper-mixgraph:64x6400"
 * </pre>
 * Arguments: scenarios as {@code name} or {@code name:NODESxREGIONS}, {@code --seed N},
 * {@code --slb-max-running-ms N} (HBase's default 30000), {@code --closed-loop RUNS} (also compare over
 * successive balancer runs, each on a window measured after the previous run's actions).
 */
public final class SideBySideBenchmark {
    /** The hidden model `libra simulate` scores the same scenario and seed with. */
    private static CostModel cost(Scenario s, long seed) {
        return CostModel.drawn(s, seed);
    }

    private SideBySideBenchmark() {
    }

    record Row(String scenario, String balancer, Score score, int moves, int splits, double movedBytes, double millis) {
        String markdown() {
            return String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %d | %d | %.1f GiB | %s |", scenario, balancer,
                    score.cpuMaxOverMean(), score.diskMaxOverMean(), moves, splits, movedBytes / (1L << 30),
                    millis < 10 ? String.format(Locale.ROOT, "%.1f ms", millis) : String.format(Locale.ROOT, "%.0f ms", millis));
        }
    }

    public static void main(String[] args) throws Exception {
        // several balancers in one JVM each register HBase's balancer metrics source
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
        long seed = 1;
        long slbMillis = 30_000;
        int closedLoopRuns = 0;
        List<String> scenarios = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seed")) {
                seed = Long.parseLong(args[++i]);
            } else if (args[i].equals("--slb-max-running-ms")) {
                slbMillis = Long.parseLong(args[++i]);
            } else if (args[i].equals("--closed-loop")) {
                closedLoopRuns = Integer.parseInt(args[++i]);
            } else {
                scenarios.add(args[i]);
            }
        }
        if (scenarios.isEmpty()) {
            scenarios.add("paper-mixgraph");
        }
        List<String> out = new ArrayList<>();
        out.add("| scenario | balancer | CPU Max/Mean | disk Max/Mean | moves | splits | bytes moved | planning time |");
        out.add("|---|---|---|---|---|---|---|---|");
        for (String spec : scenarios) {
            for (Row r : run(scenario(spec), seed, slbMillis)) {
                out.add(r.markdown());
                System.out.println(r.markdown());
            }
        }
        if (closedLoopRuns > 0) {
            out.add("");
            out.add("Closed loop: " + closedLoopRuns + " balancer runs at most, each on a new window measured from the"
                    + " layout the last one left, as the master runs the balancer every period.");
            out.add("");
            out.add("| scenario | balancer | CPU Max/Mean | disk Max/Mean | moves | splits | bytes moved | planning time (all runs) |");
            out.add("|---|---|---|---|---|---|---|---|");
            for (String spec : scenarios) {
                for (Row r : closedLoop(scenario(spec), seed, slbMillis, closedLoopRuns)) {
                    out.add(r.markdown());
                    System.out.println(r.markdown());
                }
            }
        }
        Path file = Path.of("target", "side-by-side.md");
        Files.createDirectories(file.getParent());
        Files.write(file, out);
        System.out.println(String.join(System.lineSeparator(), out));
        System.out.println("(seed " + seed + ", SLB maxRunningTime " + slbMillis + " ms, Java "
                + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " cpus)");
    }

    static Scenario scenario(String spec) {
        String[] p = spec.split(":");
        Scenario s = Scenario.byName(p[0]);
        if (p.length > 1) {
            String[] size = p[1].split("x");
            s = s.resized(Integer.parseInt(size[0]), Integer.parseInt(size[1]), 1);
        }
        return s;
    }

    static List<Row> run(Scenario s, long seed, long slbMillis) throws Exception {
        String name = s.name() + " " + s.nodes() + "×" + s.regions();
        ClusterSnapshot snap = new Simulator(cost(s, seed)).snapshot(s, seed, SimCluster.HISTOGRAM_BUCKETS);
        SimCluster start = SimCluster.initial(s, seed);
        Workload w = calibrated(s, seed, start, snap);
        SnapshotMetrics hb = new SnapshotMetrics(snap);
        Map<String, SimRegion> initial = new LinkedHashMap<>();
        for (SimRegion r : start.regions()) {
            initial.put(hb.regionOfId.get(r.id()).getEncodedName(), r);
        }
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(name, "none (starting layout)", score(cost(s, seed), start, w, initial), 0, 0, 0, 0));

        Configuration lc = libraConf();
        runLibra(lc, hb); // warm-up: the timed run below is not the JVM's first
        long t0 = System.nanoTime();
        LibraLoadBalancer libra = runLibra(lc, hb);
        double libraMillis = (System.nanoTime() - t0) / 1e6;
        List<RegionPlan> firstRun = lastPlans;
        PlanResult plan = libra.lastResult();
        rows.add(apply(name, "Libra, whole plan (over successive runs)", cost(s, seed), start, w, initial, hb, plan.plan().actions(), libraMillis));
        rows.add(apply(name, "Libra, first balancer run", cost(s, seed), start, w, initial, hb, firstRun(plan, firstRun, hb), libraMillis));

        for (boolean tuned : new boolean[] {false, true}) {
            Configuration sc = slbConf(tuned, slbMillis);
            long t1 = System.nanoTime();
            StochasticLoadBalancer slb = new StochasticLoadBalancer();
            List<RegionPlan> plans = balance(slb, sc, hb);
            double slbMs = (System.nanoTime() - t1) / 1e6;
            slb.stop("benchmark done");
            rows.add(apply(name, slbLabel(tuned), cost(s, seed), start, w, initial, hb, moves(plans, hb), slbMs));
        }
        return rows;
    }

    /** One balancer run on a measured window: the actions it executes now, named as the window names regions. */
    private interface Run {
        List<Action> actions(SnapshotMetrics hb) throws Exception;
    }

    /**
     * Each balancer runs again and again on a fresh window measured from the layout its last run
     * left (moves done, splits landed), until it does nothing or the runs are used up; the final
     * layout is scored on the hidden model. This is how the master uses a balancer.
     */
    static List<Row> closedLoop(Scenario s, long seed, long slbMillis, int runs) throws Exception {
        String name = s.name() + " " + s.nodes() + "×" + s.regions();
        SimCluster start = SimCluster.initial(s, seed);
        Workload w = calibrated(s, seed, start, new Simulator(cost(s, seed)).snapshot(s, seed, SimCluster.HISTOGRAM_BUCKETS));
        Configuration lc = libraConf();
        List<Row> rows = new ArrayList<>();
        rows.add(loop(name, "Libra", s, seed, start, w, runs,
                hb -> firstRun(runLibra(lc, hb).lastResult(), lastPlans, hb)));
        for (boolean tuned : new boolean[] {false, true}) {
            Configuration sc = slbConf(tuned, slbMillis);
            rows.add(loop(name, slbLabel(tuned), s, seed, start, w, runs, hb -> {
                        StochasticLoadBalancer slb = new StochasticLoadBalancer();
                        List<RegionPlan> plans = balance(slb, sc, hb);
                        slb.stop("benchmark run done");
                        return moves(plans, hb);
                    }));
        }
        return rows;
    }

    private static Row loop(String scenario, String balancer, Scenario s, long seed, SimCluster start, Workload w,
                            int runs, Run run) throws Exception {
        Map<String, SimRegion> layout = new LinkedHashMap<>();
        start.regions().forEach(r -> layout.put(r.id(), r));
        int moves = 0;
        int splits = 0;
        double moved = 0;
        double millis = 0;
        for (int k = 0; k < runs; k++) {
            SimCluster now = new SimCluster(start.nodes(), layout.values(), s.capacities() != null);
            List<io.libra.core.sim.Placement> placements = new ArrayList<>();
            layout.values().forEach(r -> placements.add(new io.libra.core.sim.Placement(r.traffic(w), r.node())));
            ClusterSnapshot window = now.measure(w, cost(s, seed).truth(start.nodes(), placements), Simulator.WINDOW_SECONDS,
                    java.time.Instant.ofEpochSecond(1_700_000_000L + 300L * k),
                    new java.util.SplittableRandom(seed * 7919 + k), SimCluster.HISTOGRAM_BUCKETS);
            SnapshotMetrics hb = new SnapshotMetrics(window);
            long t0 = System.nanoTime();
            List<Action> actions = run.actions(hb);
            millis += (System.nanoTime() - t0) / 1e6;
            if (actions.isEmpty()) {
                break;
            }
            for (Action a : actions) {
                if (a instanceof SplitAction sp) {
                    SimRegion r = layout.remove(hb.idOfEncoded.getOrDefault(sp.region(), sp.region()));
                    double xm = r.x0() + (r.x1() - r.x0()) * Keys.position(r.range(), sp.splitKey());
                    String left = r.id() + "." + k + "l";
                    String right = r.id() + "." + k + "r";
                    layout.put(left, new SimRegion(left, r.range().left(sp.splitKey()), r.x0(), xm, r.node()));
                    layout.put(right, new SimRegion(right, r.range().right(sp.splitKey()), xm, r.x1(), r.node()));
                    splits++;
                } else if (a instanceof MoveAction m) {
                    String id = hb.idOfEncoded.getOrDefault(m.region(), m.region());
                    SimRegion r = layout.get(id);
                    layout.put(id, r.onNode(hb.nodeOfServer.get(m.to())));
                    moved += r.sizeBytes(w);
                    moves++;
                }
            }
        }
        return new Row(scenario, balancer, score(cost(s, seed), start, w, layout), moves, splits, moved, millis);
    }

    private static List<RegionPlan> lastPlans;

    /** One balancer run of Libra as the master makes it for a real (not dry-run) balance request. */
    private static LibraLoadBalancer runLibra(Configuration conf, SnapshotMetrics hb) throws Exception {
        LibraLoadBalancer libra = new LibraLoadBalancer();
        libra.setReportSource((servers, cm) -> hb.reports);
        BalanceRequestContext.begin(false); // as LibraMasterObserver does
        try {
            lastPlans = balance(libra, conf, hb);
        } finally {
            BalanceRequestContext.end();
            libra.stop("benchmark run done");
        }
        return libra;
    }

    /** Libra executing (not a dry run), every move in one run. */
    private static Configuration libraConf() {
        Configuration c = conf();
        c.setBoolean(LibraConfig.DRY_RUN, false);
        c.setInt(LibraConfig.MAX_MOVES, 0);
        return c;
    }

    /** HBase's StochasticLoadBalancer with its defaults, or tuned for load (request costs 500, no threshold). */
    private static Configuration slbConf(boolean tuned, long maxRunningMillis) {
        Configuration c = conf();
        c.setLong("hbase.master.balancer.stochastic.maxRunningTime", maxRunningMillis);
        if (tuned) {
            c.setFloat("hbase.master.balancer.stochastic.readRequestCost", 500);
            c.setFloat("hbase.master.balancer.stochastic.writeRequestCost", 500);
            c.setFloat("hbase.master.balancer.stochastic.minCostNeedBalance", 0);
        }
        return c;
    }

    private static String slbLabel(boolean tuned) {
        return tuned ? "SLB, read/write cost 500, minCostNeedBalance 0" : "SLB, defaults";
    }

    /** What one Libra run executes: splits of regions that exist now, then the moves it returned. */
    private static List<Action> firstRun(PlanResult plan, List<RegionPlan> moves, SnapshotMetrics hb) {
        List<Action> now = new ArrayList<>();
        for (Action a : plan.plan().actions()) {
            if (a instanceof SplitAction && hb.idOfEncoded.containsKey(((SplitAction) a).region())) {
                now.add(a);
            }
        }
        now.addAll(moves(moves, hb));
        return now;
    }

    private static Configuration conf() {
        Configuration c = HBaseConfiguration.create();
        c.setBoolean("hbase.master.balancer.uselocality", false);
        return c;
    }

    private static List<RegionPlan> balance(LoadBalancer b, Configuration conf, SnapshotMetrics hb) throws Exception {
        b.setMasterServices(MasterStub.of(conf));
        b.initialize();
        b.updateClusterMetrics(hb.first);
        b.updateClusterMetrics(hb.second);
        Map<TableName, Map<ServerName, List<RegionInfo>>> load = new HashMap<>();
        load.put(HConstants.ENSEMBLE_TABLE_NAME, hb.assignment);
        List<RegionPlan> plans = b.balanceCluster(load);
        return plans == null ? List.of() : plans;
    }

    private static List<Action> moves(List<RegionPlan> plans, SnapshotMetrics hb) {
        List<Action> out = new ArrayList<>();
        for (RegionPlan p : plans) {
            out.add(new MoveAction(p.getRegionInfo().getEncodedName(), p.getSource().getServerName(),
                    p.getDestination().getServerName(), 0, null));
        }
        return out;
    }

    /**
     * The scenario's workload at the rate the snapshot was measured at: the simulator calibrates
     * the request rate to a target utilisation, and counters are linear in it.
     */
    private static Workload calibrated(Scenario s, long seed, SimCluster start, ClusterSnapshot snap) {
        Workload unit = s.workload(seed, 0);
        Map<String, Region> byId = new HashMap<>();
        snap.regions().forEach(r -> byId.put(r.id(), r));
        double unitOps = 0;
        double snapOps = 0;
        for (SimRegion r : start.regions()) {
            unitOps += unit.counters(r.x0(), r.x1()).ops();
            snapOps += byId.get(r.id()).counters().ops();
        }
        return unit.withTotalOps(unit.totalOps() * snapOps / unitOps);
    }

    /** Applies splits and moves (ids as the plan names them) to the simulated layout and scores the result. */
    private static Row apply(String scenario, String balancer, CostModel cost, SimCluster start, Workload w, Map<String, SimRegion> initial,
                             SnapshotMetrics hb, List<Action> actions, double millis) {
        Map<String, SimRegion> layout = new LinkedHashMap<>(initial);
        Map<String, String> nodeOf = new HashMap<>();
        hb.nodeOfServer.forEach(nodeOf::put);
        int moves = 0;
        int splits = 0;
        double moved = 0;
        for (Action a : actions) {
            if (a instanceof SplitAction) {
                SplitAction s = (SplitAction) a;
                SimRegion r = layout.remove(s.region());
                double xm = r.x0() + (r.x1() - r.x0()) * Keys.position(r.range(), s.splitKey());
                layout.put(s.left(), new SimRegion(s.left(), r.range().left(s.splitKey()), r.x0(), xm, r.node()));
                layout.put(s.right(), new SimRegion(s.right(), r.range().right(s.splitKey()), xm, r.x1(), r.node()));
                splits++;
            } else if (a instanceof MoveAction) {
                MoveAction m = (MoveAction) a;
                SimRegion r = layout.get(m.region());
                layout.put(m.region(), r.onNode(nodeOf.get(m.to())));
                moved += r.sizeBytes(w);
                moves++;
            }
        }
        return new Row(scenario, balancer, score(cost, start, w, layout), moves, splits, moved, millis);
    }

    private static Score score(CostModel cost, SimCluster start, Workload w, Map<String, SimRegion> layout) {
        List<RegionTraffic> traffic = new ArrayList<>();
        Map<String, String> assignment = new HashMap<>();
        layout.forEach((id, r) -> {
            traffic.add(w.traffic(id, r.x0(), r.x1()));
            assignment.put(id, r.node());
        });
        return cost.score(start.nodes(), traffic, assignment);
    }
}
