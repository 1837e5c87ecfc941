package io.libra.cassandra.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.model.Capacity;
import io.libra.core.model.RegionCounters;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingNode;
import io.libra.core.ring.RingPlannerConfig;
import io.libra.core.ring.VnodeRing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class RingModelBuilderTest {
    private static final long[] TOKENS = {-9_000_000_000_000_000_000L, -6_000_000_000_000_000_000L,
        3_000_000_000_000_000_000L};

    /** Uniform keys on an unbalanced ring: RF=1 load follows ownership, RF=3 load is even. */
    public static Window window() {
        List<Window.NodeStat> nodes = new ArrayList<>();
        List<Window.TableStat> tables = new ArrayList<>();
        double[] share = {0.35, 0.16, 0.49};
        for (int i = 0; i < 3; i++) {
            String id = "n" + (i + 1);
            nodes.add(new Window.NodeStat(id, "127.0.0." + (i + 1), true, null, 2, 0.05 + share[i], 1e5 + 2e6 * share[i],
                    "proc", List.of(TOKENS[i]), "NORMAL", 100 + i, "dc1", "rack" + (i % 2 + 1)));
            tables.add(new Window.TableStat("ks1", "kv", 1, id, 300 * share[i], 600 * share[i], 1e6 * share[i]));
            tables.add(new Window.TableStat("ks3", "kv", 3, id, 20, 40, 1e5));
        }
        return new Window(Instant.EPOCH, Instant.EPOCH.plusSeconds(10), 10, nodes, tables, List.of(), 5000, 9600, List.of(),
                List.of(KeyspaceReplication.parse("ks1", "SimpleStrategy {replication_factor=1}"),
                        KeyspaceReplication.parse("ks3", "SimpleStrategy {replication_factor=3}")));
    }

    /** {@link #window()}'s load on a vnode ring: each node four tokens, interleaved round the ring. */
    public static Window vnodes() {
        Window w = window();
        List<Window.NodeStat> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Window.NodeStat n = w.nodes().get(i);
            List<Long> tokens = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                tokens.add(Long.MIN_VALUE + (3L * k + i + 1) * (Long.MAX_VALUE / 6));
            }
            nodes.add(new Window.NodeStat(n.id(), n.host(), true, "node has 4 tokens; token moves need num_tokens: 1",
                    n.cpuCores(), n.cpuUsage(), n.diskBytesPerSec(), n.diskSource(), tokens, n.mode(), n.pid(),
                    n.datacenter(), n.rack()));
        }
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    /** {@code w} with every node in dc1/rack1 (the ring Cassandra's allocator, run with one rack, sees). */
    public static Window oneRack(Window w) {
        List<Window.NodeStat> nodes = new ArrayList<>();
        w.nodes().forEach(n -> nodes.add(new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), n.cpuUsage(),
                n.diskBytesPerSec(), n.diskSource(), n.tokens(), n.mode(), n.pid(), "dc1", "rack1")));
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    /**
     * {@code w} with node {@code id} joined halfway along the first node's arc, carrying a share of
     * the load as large as the first node's (a ring that has just grown).
     */
    public static Window joined(Window w, String id) {
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        List<Window.TableStat> tables = new ArrayList<>(w.tables());
        Window.NodeStat first = w.nodes().get(0);
        nodes.add(new Window.NodeStat(id, "127.0.0." + (nodes.size() + 1), true, null, first.cpuCores(), first.cpuUsage(),
                first.diskBytesPerSec(), first.diskSource(), List.of(TOKENS[0] + (TOKENS[1] - TOKENS[0]) / 2), "NORMAL",
                200, first.datacenter(), first.rack()));
        w.tables().stream().filter(t -> t.node().equals(first.id())).forEach(t -> tables.add(new Window.TableStat(
                t.keyspace(), t.table(), t.replicationFactor(), id, t.readOps(), t.writeOps(), t.liveBytes())));
        return new Window(w.start(), w.end(), w.seconds(), nodes, tables, w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    /** {@code w} with node {@code from} called {@code to} (a ring whose membership changed). */
    public static Window renamed(Window w, String from, String to) {
        List<Window.NodeStat> nodes = new ArrayList<>();
        List<Window.TableStat> tables = new ArrayList<>();
        w.nodes().forEach(n -> nodes.add(new Window.NodeStat(n.id().equals(from) ? to : n.id(), n.host(), n.up(),
                n.error(), n.cpuCores(), n.cpuUsage(), n.diskBytesPerSec(), n.diskSource(), n.tokens(), n.mode(), n.pid(),
                n.datacenter(), n.rack())));
        w.tables().forEach(t -> tables.add(new Window.TableStat(t.keyspace(), t.table(), t.replicationFactor(),
                t.node().equals(from) ? to : t.node(), t.readOps(), t.writeOps(), t.liveBytes())));
        return new Window(w.start(), w.end(), w.seconds(), nodes, tables, w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    @Test
    void subRangesCoverTheRingAndRegionsFollowReplication() {
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(window());
        assertThat(m.subRanges()).hasSize(24);
        for (int i = 0; i < 24; i++) {
            assertThat(m.subRanges().get(i).start()).isEqualTo(m.subRanges().get((i + 23) % 24).end());
        }
        long rf1 = m.snapshot().regions().stream().filter(r -> r.table().equals("ks1.kv")).map(r -> r.rangeId()).distinct().count();
        assertThat(rf1).isEqualTo(24);
        long rf3PerNode = m.snapshot().regions().stream().filter(r -> r.table().equals("ks3.kv") && r.node().equals("n1"))
                .map(r -> r.rangeId()).distinct().count();
        assertThat(rf3PerNode).isEqualTo(24);
        assertThat(m.ring().nodes()).hasSize(3);
        assertThat(m.snapshot().ring().get("n2")).containsExactly("2cbbb7ca13a80000");
    }

    @Test
    void declaredDiskCapacitiesMakeEachNodesCapacityItsCoresAndItsDisk() {
        Map<String, Double> disk = Map.of("n1", 4e8, "n2", 2e8, "n3", 2e8);
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT, disk).build(window());
        assertThat(m.snapshot().node("n1").orElseThrow().capacity()).isEqualTo(new Capacity(2, 4e8));
        assertThat(m.snapshot().node("n2").orElseThrow().capacity()).isEqualTo(new Capacity(2, 2e8));
        assertThat(m.ring().nodes()).filteredOn(n -> n.id().equals("n1")).extracting(RingNode::diskCapacity)
                .containsExactly(4e8);
        RingModel partial = new RingModelBuilder(8, EstimationConfig.DEFAULT, Map.of("n1", 4e8)).build(window());
        assertThat(partial.snapshot().nodes()).as("a node without one: equal nodes").allMatch(n -> n.capacity() == null);
    }

    /**
     * {@link #window()} with ks3 replicated by NetworkTopologyStrategy {dc1: 2} over its two racks
     * (n1, n3 in rack1; n2 in rack2): n3's arc is on n3 and n2, not on n3 and n1 as the next
     * nodes clockwise would have it.
     */
    public static Window racked() {
        Window w = window();
        return new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(), w.samples(), w.sampledOps(),
                w.requestOps(), w.problems(), List.of(w.keyspaces().get(0),
                        KeyspaceReplication.parse("ks3", "NetworkTopologyStrategy {dc1=2}")));
    }

    /** A node's load of a keyspace is placed on the sub-ranges Cassandra puts a replica of on it, racks included. */
    @Test
    void networkTopologyStrategyPlacesReplicasByRack() {
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(racked());
        java.util.function.Function<String, java.util.Set<String>> arcsOf = node -> m.snapshot().regions().stream()
                .filter(r -> r.table().equals("ks3.kv") && r.node().equals(node))
                .map(r -> r.rangeId().substring(0, 2)).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        assertThat(arcsOf.apply("n1")).containsExactly("n1");
        assertThat(arcsOf.apply("n2")).containsExactly("n1", "n2", "n3");
        assertThat(arcsOf.apply("n3")).containsExactly("n2", "n3");
        assertThat(m.ring().placed()).as("the ring's loads are placed by data centre and rack").isTrue();
        assertThat(m.topology().nodes().get("n2").rack()).isEqualTo("rack2");
    }

    @Test
    void theRingPlanEvensOutOwnership() {
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(window());
        RingPlan plan = new RingPlanner(new RingPlannerConfig(0.05, 2, 0, 4, 0.01)).plan(m.ring());
        assertThat(plan.moves()).isNotEmpty();
        assertThat(plan.detail()).contains("bottleneck search Δ");
        assertThat(plan.predicted().imbalanceDegree()).isLessThan(plan.before().imbalanceDegree() / 2);
    }

    @Test
    void sampledTokensSteerTheLoadToTheirSubRange() {
        Window w = window();
        List<Window.KeySample> samples = List.of(new Window.KeySample("ks1", "kv", "n3", 2_900_000_000_000_000_000L, 0, 6000));
        Window hot = new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(), samples, 6000, 9600, List.of(), w.keyspaces());
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(hot);
        double last = m.snapshot().regions().stream().filter(r -> r.table().equals("ks1.kv") && r.rangeId().equals("n3.7"))
                .mapToDouble(r -> r.counters().writeOps()).sum();
        assertThat(last).isGreaterThan(600 * 0.49 * 0.9);
    }

    /**
     * Three partitions of n3 as often written, one with values 640 times the others': the write-size
     * sampler's bytes give the large one's sub-range the bytes (and so the disk) its requests alone
     * do not, and its reads are taken at its values' size; the unsampled rest is taken at the
     * typical partition's size, not at a mean the large one makes.
     */
    @Test
    void sampledWriteBytesPlaceDiskThatRequestCountsCannot() {
        Window w = window();
        List<Window.KeySample> samples = List.of(
                new Window.KeySample("ks1", "kv", "n3", 2_900_000_000_000_000_000L, 600, 600, 600L * 64_000),
                new Window.KeySample("ks1", "kv", "n3", -5_900_000_000_000_000_000L, 600, 600, 600L * 100),
                new Window.KeySample("ks1", "kv", "n3", -1_000_000_000_000_000_000L, 600, 600, 600L * 100));
        Window sized = new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(), samples, 3600, 9600, List.of(),
                w.keyspaces());
        RingModel m = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(sized);
        io.libra.core.estimate.RegionLoad large = ks1(m, "n3.7");
        io.libra.core.estimate.RegionLoad small = ks1(m, "n3.0");
        RegionCounters l = large.region().counters();
        RegionCounters s = small.region().counters();
        assertThat(l.writeOps()).as("as often written").isCloseTo(s.writeOps(), within(s.writeOps() * 0.2));
        assertThat(l.writeBytes() / l.writeOps()).as("bytes per write").isGreaterThan(100 * s.writeBytes() / s.writeOps());
        assertThat(l.readBytes() / l.readOps()).as("reads at the values' size").isGreaterThan(10_000);
        assertThat(large.disk()).as("the large values' sub-range carries the disk").isGreaterThan(5 * small.disk());
        RingModel unsized = new RingModelBuilder(8, EstimationConfig.DEFAULT).build(new Window(w.start(), w.end(),
                w.seconds(), w.nodes(), w.tables(), samples.stream().map(k -> new Window.KeySample(k.keyspace(), k.table(),
                        k.node(), k.token(), k.reads(), k.writes())).toList(), 3600, 9600, List.of(), w.keyspaces()));
        assertThat(ks1(unsized, "n3.7").disk()).as("without the bytes, requests alone share it evenly")
                .isCloseTo(ks1(unsized, "n3.0").disk(), within(ks1(unsized, "n3.0").disk() * 0.2));
    }

    private static io.libra.core.estimate.RegionLoad ks1(RingModel m, String subRange) {
        return m.load().regions().stream()
                .filter(r -> r.region().table().equals("ks1.kv") && r.region().rangeId().equals(subRange))
                .findFirst().orElseThrow();
    }

    /** A vnode ring is modelled for the add-node advisor, every token's arc cut, never for the token planner. */
    @Test
    void aVnodeWindowIsModelledForTheAdvisorOnly() {
        RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);
        assertThatThrownBy(() -> builder.build(vnodes())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("single token");
        VnodeRing ring = builder.vnodes(vnodes());
        assertThat(ring.members()).hasSize(3).allSatisfy(m -> assertThat(m.tokens()).hasSize(4));
        assertThat(ring.segments()).as("each node's 4 arcs in 8 / 4 pieces, and the sub-range across the ring's end cut there")
                .hasSize(3 * 4 * 2 + 1);
        assertThat(ring.placed()).isFalse();
        double cpu = ring.segments().stream().flatMap(x -> x.loads().stream()).mapToDouble(l -> l.cpu() * l.replicationFactor())
                .sum() + ring.members().stream().mapToDouble(VnodeRing.Member::baseCpu).sum();
        assertThat(cpu).as("every node's measured CPU is in a range or its base")
                .isCloseTo(vnodes().nodes().stream().mapToDouble(Window.NodeStat::cpuUsage).sum(), within(1e-6));
    }

    @Test
    void aNodeDownLeavesNoVnodeModel() {
        Window w = vnodes();
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        Window.NodeStat n2 = nodes.get(1);
        nodes.set(1, new Window.NodeStat(n2.id(), n2.host(), false, "unreachable", 0, 0, 0, "none", List.of(), "DOWN", -1,
                null, null));
        Window down = new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(),
                w.requestOps(), List.of("node n2 is unreachable over JMX"), w.keyspaces());
        assertThatThrownBy(() -> new RingModelBuilder(8, EstimationConfig.DEFAULT).vnodes(down))
                .isInstanceOf(IllegalStateException.class).hasMessage("every node must be up to model the ring");
    }

    @Test
    void containingFindsTheSubRangeAndWraps() {
        long[] ends = {-10, 0, 10};
        assertThat(RingModelBuilder.containing(ends, -10)).isZero();
        assertThat(RingModelBuilder.containing(ends, -5)).isEqualTo(1);
        assertThat(RingModelBuilder.containing(ends, 11)).isZero();
        assertThat(RingModelBuilder.containing(ends, Long.MIN_VALUE)).isZero();
    }
}
