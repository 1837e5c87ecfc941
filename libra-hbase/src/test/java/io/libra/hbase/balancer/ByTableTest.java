package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Assessment;
import io.libra.core.PlanRequest;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.PlacementRule;
import java.time.Instant;
import io.libra.core.model.Region;
import io.libra.hbase.LibraConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.master.RegionPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** hbase.master.loadbalance.bytable=true: HBase asks table by table; Libra plans them all once per call. */
class ByTableTest {
    private LibraLoadBalancer balancer;

    @AfterEach
    void stop() {
        if (balancer != null) {
            balancer.stop("test over");
        }
    }

    /** The skewed cluster with its regions split between two tables (even ids t1, odd ids t2). */
    static ClusterSnapshot twoTables() {
        return twoTables(Skewed.snapshot());
    }

    /** The same regions, the even-numbered in table t1 and the odd in t2. */
    static ClusterSnapshot twoTables(ClusterSnapshot s) {
        List<Region> regions = new ArrayList<>();
        for (Region r : s.regions()) {
            int i = Integer.parseInt(r.id().substring(2));
            regions.add(new Region(r.id(), i % 2 == 0 ? "t1" : "t2", r.range(), r.node(), r.sizeBytes(), r.counters()));
        }
        return s.withState(s.nodes(), regions);
    }

    @Test
    void plansEveryTableOnOnePullOfTheReports() throws Exception {
        SnapshotMetrics cluster = new SnapshotMetrics(twoTables());
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.master.balancer.uselocality", false);
        conf.setBoolean("hbase.master.loadbalance.bytable", true);
        conf.setBoolean(LibraConfig.DRY_RUN, false);
        conf.setInt(LibraConfig.MAX_MOVES, 14); // one cap for the whole call, shared by the tables
        AtomicInteger pulls = new AtomicInteger();
        balancer = new LibraLoadBalancer();
        balancer.setReportSource((servers, cm) -> {
            pulls.incrementAndGet();
            return cluster.reports;
        });
        balancer.setMasterServices(MasterStub.of(conf));
        balancer.initialize();
        balancer.updateClusterMetrics(cluster.first);
        balancer.updateClusterMetrics(cluster.second);

        Map<TableName, Map<ServerName, List<RegionInfo>>> load = new HashMap<>();
        cluster.assignment.forEach((sn, regions) -> regions.forEach(ri -> load
                .computeIfAbsent(ri.getTable(), t -> new HashMap<>())
                .computeIfAbsent(sn, k -> new ArrayList<>()).add(ri)));
        load.values().forEach(m -> cluster.assignment.keySet().forEach(sn -> m.putIfAbsent(sn, new ArrayList<>())));

        List<RegionPlan> plans = balancer.balanceCluster(load);
        assertThat(pulls.get()).as("reports pulled once for both tables").isEqualTo(1);
        assertThat(plans).isNotEmpty();
        assertThat(plans).extracting(p -> p.getRegionInfo().getTable().getNameAsString()).contains("t1", "t2");
        assertThat(balancer.lastSnapshot().regions()).as("the estimate covers the whole cluster").hasSize(32);
        assertThat(plans).hasSizeLessThanOrEqualTo(14);
        assertThat(plans).extracting(p -> p.getRegionInfo().getEncodedName()).doesNotHaveDuplicates();
    }

    @Test
    void aTablesPlanIsAsConservativeAsItsRunAfterAMissedForecast() {
        ClusterSnapshot now = twoTables();
        Planner planner = Planner.builder().build();
        PlanResult last = planner.plan(now);
        // a plan that claimed to fix nothing and forecast every node 30% busier than it measures
        List<NodeForecast> off = now.nodes().stream()
                .map(n -> new NodeForecast(n.id(), 1.3 * n.cpuUsage(), 1.3 * n.diskBytesPerSec())).toList();
        Plan missed = new Plan(last.plan().strategy(), last.plan().actions(), last.plan().before(),
                last.plan().before(), PlanStatus.PLANNED, "", off, last.plan().estimation());
        Assessment sure = planner.assess(PlanRequest.of(now), m -> m);
        Assessment unsure = planner.assess(new PlanRequest(now, List.of(), missed, false), m -> m);
        assertThat(unsure.conservative()).isTrue();

        Plan plain = TableModels.plan(planner, sure, "t1", PlacementRule.ANY, Instant::now).plan();
        Plan careful = TableModels.plan(planner, unsure, "t1", PlacementRule.ANY, Instant::now).plan();
        assertThat(plain.actions()).isNotEmpty();
        assertThat(plain.detail()).doesNotContain("conservative");
        assertThat(careful.detail()).contains("off by 30.0%").contains("conservative");
        assertThat(careful.actions()).hasSizeLessThanOrEqualTo(plain.actions().size())
                .allSatisfy(a -> assertThat(a.reason().note()).contains("conservative: benefit above the measured "
                        + "forecast error 30.0%"));
        assertThat(careful.actions()).as("what is planned still moves the hot regions of t1").isNotEmpty();
    }

    /**
     * ByTableIT's missing-report case: "even" has the same traffic on every server; "hot" is
     * packed on rs-1. rs-3 and rs-4 also do work their regions' counters do not explain (their
     * flushes and compactions), so its share of their measured CPU would make "even" look
     * CPU-skewed there, and a by-table plan would trade its even disk spread for that.
     */
    @Test
    void aTableWithEvenTrafficIsLeftAloneWhateverElseItsServersDo() {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            boolean even = i < 8;
            RegionCounters c = even ? new RegionCounters(0, 20, 0, 20 * 16384.0) : new RegionCounters(2000, 0, 32000, 0);
            regions.add(new Region("r-" + i, even ? "even" : "hot", new KeyRange(String.format("%02x", i),
                    String.format("%02x", i + 1)), even ? "rs-" + (1 + i / 2) : i < 14 ? "rs-1" : "rs-2", 1 << 20, c));
        }
        ClusterSnapshot s = Skewed.after(Skewed.snapshot().withState(Skewed.snapshot().nodes(), regions), Map.of(),
                Skewed.AT);
        List<Node> busy = s.nodes().stream().map(n -> n.id().equals("rs-3") || n.id().equals("rs-4")
                ? new Node(n.id(), n.cpuCores(), n.cpuUsage() + 0.5, n.diskBytesPerSec()) : n).toList();
        Planner planner = Planner.builder().learning(false).build();
        Assessment run = planner.assess(PlanRequest.of(s.withState(busy, s.regions())), m -> m);
        assertThat(run.model().regions()).filteredOn(r -> r.region().table().equals("even") && r.node().equals("rs-3"))
                .as("the server's unexplained work is its regions' share").allSatisfy(r -> assertThat(r.cpu()).isGreaterThan(0.2));

        LoadModel even = TableModels.of(run.model(), "even", planner.estimation());
        assertThat(even.balance().cpuMaxOverMean()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(even.balance().diskMaxOverMean()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        Plan plan = TableModels.plan(planner, run, "even", PlacementRule.ANY, Instant::now).plan();
        assertThat(plan.actions()).as("nothing to trade: %s", plan.detail()).isEmpty();
        assertThat(TableModels.plan(planner, run, "hot", PlacementRule.ANY, Instant::now).plan().actions())
                .as("the packed table is still spread").isNotEmpty();
    }
    /**
     * The hysteresis judges a quiet cluster on its servers' totals averaged over the windows since a
     * region last moved; one table's Δ is not told by those totals. Here the servers are even, each
     * table packed on two of them: after a balanced run and two quiet windows, the table is still
     * planned on its own Δ.
     */
    @Test
    void aTableIsJudgedOnItsOwnDeltaNotTheServersAveragedOverQuietWindows() {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            int server = i / 8;
            boolean t1 = i % 2 == 0;
            double reads = t1 == server < 2 ? 200 : 50;
            regions.add(new Region("r-" + i, t1 ? "t1" : "t2", new KeyRange(String.format("%02x", i),
                    String.format("%02x", i + 1)), "rs-" + (1 + server), 1 << 20, new RegionCounters(reads, 0, reads * 1000, 0)));
        }
        ClusterSnapshot base = Skewed.snapshot().withState(Skewed.snapshot().nodes(), regions);
        List<ClusterSnapshot> quiet = List.of(Skewed.after(base, Map.of(), Skewed.AT.minusSeconds(120)),
                Skewed.after(base, Map.of(), Skewed.AT.minusSeconds(60)));
        ClusterSnapshot now = Skewed.after(base, Map.of(), Skewed.AT);
        Planner planner = Planner.builder().learning(false).build();
        Plan balanced = Plan.empty("libra", LoadModel.measuredBalance(now), PlanStatus.BALANCED, "Δ ≤ λ");
        Assessment run = planner.assess(new PlanRequest(now, quiet, balanced, false), m -> m);
        assertThat(run.quiet()).as("the servers measured the same layout three times").isPresent();
        assertThat(run.quiet().get().delta()).isLessThan(0.10);
        assertThat(TableModels.of(run.model(), "t1", planner.estimation()).balance().imbalanceDegree()).isGreaterThan(0.10);

        Plan t1 = TableModels.plan(planner, run, "t1", PlacementRule.ANY, Instant::now).plan();

        assertThat(t1.actions()).as("t1 is packed on two servers: %s", t1.detail()).isNotEmpty();
    }
}
