package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.SplitAction;
import io.libra.core.schedule.PlacementRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.junit.jupiter.api.Test;

/** HBase's placement rules on a tiny hand-made cluster: three servers, meta, a table with a replica. */
class PlacementTest {
    private static final ServerName A = ServerName.valueOf("a", 16020, 1);
    private static final ServerName B = ServerName.valueOf("b", 16020, 1);
    private static final ServerName C = ServerName.valueOf("c", 16020, 1);
    private final RegionInfo meta = RegionInfoBuilder.newBuilder(TableName.META_TABLE_NAME).setRegionId(1).build();
    private final RegionInfo primary = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setRegionId(2).build();
    private final RegionInfo replica = RegionReplicaUtil.getRegionInfoForReplica(primary, 1);
    private final RegionInfo other = RegionInfoBuilder.newBuilder(TableName.valueOf("u")).setRegionId(3).build();

    private HBaseSnapshot snap(List<String> unreported) {
        Map<String, RegionInfo> regions = new LinkedHashMap<>();
        List<Region> rs = new ArrayList<>();
        Object[][] layout = {{meta, A}, {primary, A}, {replica, B}, {other, A}};
        for (Object[] l : layout) {
            RegionInfo ri = (RegionInfo) l[0];
            regions.put(ri.getEncodedName(), ri);
            rs.add(new Region(ri.getEncodedName(), ri.getTable().getNameAsString(), new KeyRange("", ""),
                    ((ServerName) l[1]).getServerName(), 1 << 20, new RegionCounters(100, 10, 1000, 100)));
        }
        List<Node> nodes = List.of(new Node(A.getServerName(), 8, 3, 3000), new Node(B.getServerName(), 8, 1, 1000),
                new Node(C.getServerName(), 8, 1, 1000));
        Map<String, ServerName> servers = Map.of(A.getServerName(), A, B.getServerName(), B, C.getServerName(), C);
        return new HBaseSnapshot(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, rs), regions, servers, unreported);
    }

    @Test
    void systemRegionsArePinnedTheirLoadCountingWhereTheySit() {
        HBaseSnapshot s = snap(List.of());
        Placement p = new Placement(s, n -> "");
        LoadModel full = Planner.builder().build().estimate(s.snapshot());
        LoadModel pinned = p.pin(full);
        assertThat(pinned.regions()).extracting(r -> r.id()).doesNotContain(meta.getEncodedName());
        int a = pinned.nodeIndex(A.getServerName());
        assertThat(pinned.load(a, Dimension.CPU)).isCloseTo(full.load(a, Dimension.CPU), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(pinned.base(a, Dimension.CPU)).isGreaterThan(full.base(a, Dimension.CPU));
        assertThat(p.refuseMove(meta.getEncodedName(), C.getServerName())).contains("system table");
        assertThat(p.refuseSplit(meta.getEncodedName())).contains("never split");
    }

    @Test
    void replicasNeverShareAServer() {
        Placement p = new Placement(snap(List.of()), n -> "");
        assertThat(p.refuseMove(primary.getEncodedName(), B.getServerName())).contains("replica");
        assertThat(p.refuseMove(replica.getEncodedName(), A.getServerName())).contains("replica");
        assertThat(p.refuseMove(primary.getEncodedName(), C.getServerName())).isNull();
        p.moved(primary.getEncodedName(), C.getServerName());
        assertThat(p.refuseMove(replica.getEncodedName(), C.getServerName())).as("follows the moves of this run")
                .contains("replica");
        assertThat(p.refuseSplit(replica.getEncodedName())).contains("secondary replica");
    }

    /** A second plan of the window (a rival model's, a revert) starts from where the regions are, not the first plan's moves. */
    @Test
    void aFreshRuleForgetsTheMovesAnotherPlanCommitted() {
        PlacementRule first = new Placement(snap(List.of()), n -> "").forScheduler();
        first.moved(primary.getEncodedName(), C.getServerName());
        PlacementRule second = first.fresh();

        assertThat(second.refuseMove(replica.getEncodedName(), C.getServerName())).as("the primary is still on a").isNull();
        assertThat(second.refuseMove(replica.getEncodedName(), A.getServerName())).contains("replica");
        assertThat(first.refuseMove(replica.getEncodedName(), C.getServerName())).as("the first still follows its plan")
                .contains("replica");
    }

    @Test
    void replicasKeepTheirRacksWhenRacksAreKnown() {
        Map<String, String> rack = Map.of(A.getServerName(), "/r1", B.getServerName(), "/r2", C.getServerName(), "/r2");
        Placement p = new Placement(snap(List.of()), rack::get);
        assertThat(p.refuseMove(primary.getEncodedName(), C.getServerName())).contains("fewer racks");
        assertThat(p.refuseMove(other.getEncodedName(), C.getServerName())).isNull();
    }

    @Test
    void unreportedAndHeldServersAreNoDestination() {
        Placement p = new Placement(snap(List.of(C.getServerName())), n -> "");
        assertThat(p.refuseMove(other.getEncodedName(), C.getServerName())).contains("no fresh report");
        p.hold(java.util.Set.of(B.getServerName()));
        assertThat(p.refuseMove(other.getEncodedName(), B.getServerName())).contains("in flux");
        assertThat(p.noDestinations()).containsExactlyInAnyOrder(B.getServerName(), C.getServerName());
    }

    @Test
    void noRegionIsSplitOnAServerWithoutAFreshReport() {
        assertThat(new Placement(snap(List.of()), n -> "").refuseSplit(other.getEncodedName())).isNull();
        Placement p = new Placement(snap(List.of(A.getServerName())), n -> "");
        assertThat(p.refuseSplit(other.getEncodedName())).isEqualTo("its server " + A.getServerName()
                + " has no fresh report, never split there");
        assertThat(p.forScheduler().refuseSplit(primary.getEncodedName())).contains("no fresh report");
    }

    @Test
    void aSplitHBaseRefusedLatelyIsNotPlannedByTheSchedulerNorRequested() {
        Placement p = new Placement(snap(List.of()), n -> "");
        p.splitsRefused(r -> r.equals(other.getEncodedName()) ? java.util.Optional.of("HBase refused its split")
                : java.util.Optional.empty());
        assertThat(p.refuseSplit(other.getEncodedName())).isEqualTo("HBase refused its split");
        assertThat(p.forScheduler().refuseSplit(other.getEncodedName())).isEqualTo("HBase refused its split");
        assertThat(p.refuseSplit(primary.getEncodedName())).isNull();
        assertThat(p.withheldSplits()).as("what the scheduler's copy was refused is reported by the balancer's")
                .containsExactly(java.util.Map.entry(other.getEncodedName(), "HBase refused its split"));
    }

    @Test
    void splitsAreCappedPerRunAndNeverOfSystemTables() {
        HBaseSnapshot s = snap(List.of());
        List<Action> plan = List.of(
                new SplitAction(meta.getEncodedName(), "aa", "m.l", "m.r", 0.5, null),
                new SplitAction(primary.getEncodedName(), "bb", "p.l", "p.r", 0.5, null),
                new SplitAction(other.getEncodedName(), "cc", "o.l", "o.r", 0.5, null));
        Translation t = Translation.of(plan, s, new Translation.Limits(0, 1), new Placement(s, n -> ""), null);
        assertThat(t.splits()).extracting(x -> x.region().getEncodedName()).containsExactly(primary.getEncodedName());
        assertThat(t.deferred()).anyMatch(d -> d.contains("never split")).anyMatch(d -> d.contains("max.splits.per.run"));
    }

    @Test
    void amongRegionsOfEqualBenefitTheOneWithFewerStoreFileBytesMoves() {
        RegionInfo big = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setRegionId(10).build();
        RegionInfo small = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setRegionId(11).build();
        Map<String, RegionInfo> regions = new LinkedHashMap<>();
        regions.put(big.getEncodedName(), big);
        regions.put(small.getEncodedName(), small);
        RegionCounters same = new RegionCounters(100, 10, 1000, 100);
        List<Region> rs = List.of(
                new Region(big.getEncodedName(), "t", new KeyRange("", "80"), A.getServerName(), 10e9, same),
                new Region(small.getEncodedName(), "t", new KeyRange("80", ""), A.getServerName(), 1e9, same));
        List<Node> nodes = List.of(new Node(A.getServerName(), 8, 3, 3000), new Node(B.getServerName(), 8, 1, 1000));
        HBaseSnapshot s = new HBaseSnapshot(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, rs), regions,
                Map.of(A.getServerName(), A, B.getServerName(), B), List.of());
        LoadModel model = Planner.builder().build().estimate(s.snapshot());
        io.libra.core.plan.Reason why = new io.libra.core.plan.Reason(Dimension.CPU, List.of(), null, null, "hot");
        Translation t = Translation.of(List.of(new MoveAction(big.getEncodedName(), A.getServerName(),
                B.getServerName(), 10e9, why)), s, new Translation.Limits(0, 0), new Placement(s, n -> ""), model);
        assertThat(t.moveActions()).singleElement().extracting(MoveAction::region).isEqualTo(small.getEncodedName());
        assertThat(t.bytesMoved(s)).isEqualTo(1e9);
    }

    private static final ServerName D = ServerName.valueOf("d", 16020, 1);

    /**
     * a is hot, the primary its hottest region; b, the coolest for the whole cluster and for
     * table t alone, holds the primary's replica; c carries table u and some of t.
     */
    private HBaseSnapshot hotPrimary() {
        Map<String, RegionInfo> regions = new LinkedHashMap<>();
        List<Region> rs = new ArrayList<>();
        Map<String, Double> ops = new LinkedHashMap<>();
        List<Object[]> layout = new ArrayList<>(List.of(new Object[] {meta, A, 10.0}, new Object[] {primary, A, 150.0},
                new Object[] {replica, B, 10.0}, new Object[] {other, C, 20.0}));
        for (int i = 0; i < 7; i++) {
            RegionInfo ri = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setRegionId(100 + i).build();
            layout.add(new Object[] {ri, i < 5 ? A : i == 5 ? D : C, i < 5 ? 100.0 : 20.0});
        }
        for (Object[] l : layout) {
            RegionInfo ri = (RegionInfo) l[0];
            String node = ((ServerName) l[1]).getServerName();
            double n = (Double) l[2];
            regions.put(ri.getEncodedName(), ri);
            ops.merge(node, n, Double::sum);
            rs.add(new Region(ri.getEncodedName(), ri.getTable().getNameAsString(), new KeyRange("", ""), node, 1 << 20,
                    new RegionCounters(n, 0, n * 100, 0)));
        }
        List<Node> nodes = new ArrayList<>();
        for (ServerName sn : List.of(A, B, C, D)) {
            double n = ops.get(sn.getServerName());
            nodes.add(new Node(sn.getServerName(), 8, n * 1e-3, n * 100));
        }
        return new HBaseSnapshot(new ClusterSnapshot("hbase", Instant.EPOCH, 60, nodes, rs), regions,
                Map.of(A.getServerName(), A, B.getServerName(), B, C.getServerName(), C, D.getServerName(), D), List.of());
    }

    @Test
    void theSchedulerAsksTheRulesSoARefusedDestinationGoesToTheNextBest() {
        HBaseSnapshot s = hotPrimary();
        Placement p = new Placement(s, n -> "");
        Planner planner = Planner.builder().build();
        io.libra.core.PlanRequest request = io.libra.core.PlanRequest.of(s.snapshot());
        List<MoveAction> free = moves(planner.plan(request, p::pin).plan().actions());
        List<MoveAction> ruled = moves(planner.plan(request, p::pin, p.forScheduler()).plan().actions());
        assertRulesRedirectThePrimary(s, p, free, ruled);
    }

    @Test
    void byTableTheSchedulerAsksTheRulesToo() {
        HBaseSnapshot s = hotPrimary();
        Placement p = new Placement(s, n -> "");
        Planner planner = Planner.builder().build();
        io.libra.core.Assessment run = planner.assess(io.libra.core.PlanRequest.of(s.snapshot()), p::pin);
        List<MoveAction> free = moves(planner.plan(TableModels.of(run.model(), "t", planner.estimation())).actions());
        io.libra.core.PlanResult table = TableModels.plan(planner, run, "t", p.forScheduler(), Instant::now);
        assertRulesRedirectThePrimary(s, p, free, moves(table.plan().actions()));
        assertThat(moves(table.plan().actions())).filteredOn(m -> s.regions().containsKey(m.region()))
                .as("only table t is planned").allSatisfy(m ->
                assertThat(s.regions().get(m.region()).getTable().getNameAsString()).isEqualTo("t"));
        assertThat(table.predicted().balance().imbalanceDegree()).as("the scheduler's prediction: t is better spread")
                .isLessThan(table.before().balance().imbalanceDegree());
    }

    private void assertRulesRedirectThePrimary(HBaseSnapshot s, Placement p, List<MoveAction> free,
                                               List<MoveAction> ruled) {
        String id = primary.getEncodedName();
        assertThat(free).as("without the rules the primary goes to its replica's server")
                .anySatisfy(m -> assertThat(m.region() + ">" + m.to()).isEqualTo(id + ">" + B.getServerName()));
        assertThat(ruled).as("with them, to the next-best server").anySatisfy(m -> assertThat(m.region() + ">" + m.to())
                .isIn(id + ">" + C.getServerName(), id + ">" + D.getServerName()));
        assertThat(ruled).filteredOn(m -> s.regions().containsKey(m.region())).as("nothing the final check refuses")
                .allSatisfy(m -> assertThat(p.refuseMove(m.region(), m.to())).isNull());
    }

    private static List<MoveAction> moves(List<Action> actions) {
        return actions.stream().filter(MoveAction.class::isInstance).map(MoveAction.class::cast).toList();
    }
}
