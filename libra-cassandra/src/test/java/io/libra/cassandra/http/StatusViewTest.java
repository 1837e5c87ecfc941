package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.plan.Estimation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What GET /status says of each node. */
class StatusViewTest {
    private static SidecarConfig config() {
        SidecarConfig c = new SidecarConfig();
        List<SidecarConfig.Instance> instances = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            SidecarConfig.Instance in = new SidecarConfig.Instance();
            in.id = "n" + i;
            in.host = "127.0.0." + i;
            instances.add(in);
        }
        c.instances = instances;
        c.lease.owner = "host-a:9044";
        return c;
    }

    private static JsonNode status(Window w) {
        DaemonView v = new DaemonView(config(), Instant.EPOCH, 1, null, w, null, null, null, null, null, "x", null, false, true, 3,
                false, null, null);
        return Views.status(v);
    }

    @Test
    void eachNodeShowsTheDataCentreAndRackItsSnitchGives() {
        JsonNode nodes = status(RingModelBuilderTest.window()).path("nodes");
        assertThat(nodes.findValuesAsText("datacenter")).containsExactly("dc1", "dc1", "dc1");
        assertThat(nodes.findValuesAsText("rack")).containsExactly("rack1", "rack2", "rack1");
    }

    /** n1 and n2 in dc1 at 1 and 3 MB/s of disk, n3 alone in dc2: the ring's Max/Mean and each data centre's own. */
    @Test
    void nodeBalanceIsGivenPerDataCentreWhenThereAreSeveral() {
        Window w = RingModelBuilderTest.window();
        assertThat(status(w).path("nodeBalance").has("byDatacenter")).as("one data centre: no breakdown").isFalse();
        List<Window.NodeStat> nodes = new ArrayList<>();
        double[] disk = {1e6, 3e6, 5e6};
        for (int i = 0; i < 3; i++) {
            Window.NodeStat n = w.nodes().get(i);
            nodes.add(new Window.NodeStat(n.id(), n.host(), true, null, n.cpuCores(), 1, disk[i], n.diskSource(), n.tokens(),
                    n.mode(), n.pid(), i < 2 ? "dc1" : "dc2", n.rack()));
        }
        JsonNode b = status(new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(),
                w.requestOps(), w.problems(), w.keyspaces())).path("nodeBalance");
        assertThat(b.path("diskMaxOverMean").asDouble()).isEqualTo(5.0 / 3);
        assertThat(b.path("byDatacenter").path("dc1").path("nodes").asInt()).isEqualTo(2);
        assertThat(b.path("byDatacenter").path("dc1").path("diskMaxOverMean").asDouble()).isEqualTo(1.5);
        assertThat(b.path("byDatacenter").path("dc2").path("diskMaxOverMean").asDouble()).isEqualTo(1.0);
        assertThat(b.path("byDatacenter").path("dc2").path("cpuMaxOverMean").asDouble()).isEqualTo(1.0);
    }

    @Test
    void tableSkewAndHotPartitionsAreListed() {
        Window w = RingModelBuilderTest.window();
        Window sampled = new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(),
                List.of(new Window.KeySample("ks1", "kv", "n3", 2_900_000_000_000_000_000L, 40, 2)), 42, 9600, List.of(),
                w.keyspaces());
        JsonNode s = status(sampled);
        assertThat(s.path("tableSkew").findValuesAsText("table")).containsExactly("ks1.kv", "ks3.kv");
        assertThat(s.path("tableSkew").get(0).path("hottestNode").asText()).isEqualTo("n3");
        JsonNode hot = s.path("hotPartitions").get(0);
        assertThat(hot.path("token").asText()).as("a decimal string, as JSON numbers lose 64-bit tokens")
                .isEqualTo("2900000000000000000");
        assertThat(hot.path("reads").asLong()).isEqualTo(40);
        assertThat(hot.path("replicas").toString()).isEqualTo("[\"n3\"]");
    }

    @Test
    void theLeaseThisSidecarTakesIsNamed() {
        JsonNode lease = status(RingModelBuilderTest.window()).path("lease");
        assertThat(lease.path("enabled").asBoolean()).isTrue();
        assertThat(lease.path("owner").asText()).isEqualTo("host-a:9044");
        assertThat(lease.path("row").asText()).isEqualTo("libra_sidecar.lease, ring = " + config().clusterName);
    }

    @Test
    void eachKeyspaceShowsTheReplicationItsNodesReport() {
        JsonNode ks = status(RingModelBuilderTest.window()).path("keyspaces");
        assertThat(ks.findValuesAsText("keyspace")).containsExactly("ks1", "ks3");
        assertThat(ks.get(1).path("strategy").asText()).isEqualTo("SimpleStrategy");
        assertThat(ks.get(1).path("replication").path("replication_factor").asText()).isEqualTo("3");
    }

    @Test
    void planningHistoryShowsWhatARestartFound() {
        DaemonView v = new DaemonView(config(), Instant.EPOCH, 0, null, null, null, null, null, null, null, "x", null, false,
                true, 3, false, null, new DaemonView.Memory(2, true, "planning history restored from f: 2 window(s)"));
        JsonNode m = Views.status(v).path("planningHistory");
        assertThat(m.path("windows").asInt()).isEqualTo(2);
        assertThat(m.path("forecastToCheck").asBoolean()).isTrue();
        assertThat(m.path("restored").asText()).startsWith("planning history restored");
    }

    @Test
    void theEstimationBlockSaysWhetherAForecastWasCheckedAndNeverShowsNaN() {
        DaemonView.Estimate unchecked = new DaemonView.Estimate(new Estimation("mapping", 1, Double.NaN, Double.NaN,
                "too few nodes"), false, 0, null);
        JsonNode e = Views.status(view(unchecked)).path("estimation");
        assertThat(e.path("model").asText()).isEqualTo("mapping");
        assertThat(e.path("forecastChecked").asBoolean()).isFalse();
        assertThat(e.has("fitError")).isFalse();
        assertThat(e.has("lastPredictionError")).isFalse();
        assertThat(e.has("workloadShift")).isFalse();
        assertThat(e.path("missExplainedByWorkload").asBoolean()).isFalse();
        assertThat(e.toString()).doesNotContain("NaN");
        DaemonView.Estimate checked = new DaemonView.Estimate(new Estimation("learnt", 3, 0.04, 0.3, "learnt"), true, 2,
                "history dropped: x", 0.2, true);
        e = Views.status(view(checked)).path("estimation");
        assertThat(e.path("forecastChecked").asBoolean()).isTrue();
        assertThat(e.path("lastPredictionError").asDouble()).isEqualTo(0.3);
        assertThat(e.path("conservative").asBoolean()).isTrue();
        assertThat(e.path("windows").asInt()).isEqualTo(3);
        assertThat(e.path("historyKept").asInt()).isEqualTo(2);
        assertThat(e.path("memoryDropped").asText()).isEqualTo("history dropped: x");
        assertThat(e.path("workloadShift").asDouble()).isEqualTo(0.2);
        assertThat(e.path("missExplainedByWorkload").asBoolean()).isTrue();
    }

    private static DaemonView view(DaemonView.Estimate e) {
        return new DaemonView(config(), Instant.EPOCH, 1, null, RingModelBuilderTest.window(), null, null, null, null, null,
                null, e, false, true, 3, false, null, null);
    }

    @Test
    void aNodeThatDidNotAnswerHasNoPlacement() {
        Window w = RingModelBuilderTest.window();
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        nodes.set(1, new Window.NodeStat("n2", "127.0.0.2", false, "unreachable", 0, 0, 0, "none", List.of(), "DOWN", -1, null,
                null));
        JsonNode n2 = status(new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(),
                w.requestOps(), List.of("node n2 is unreachable over JMX"), w.keyspaces())).path("nodes").get(1);
        assertThat(n2.path("up").asBoolean()).isFalse();
        assertThat(n2.has("datacenter")).isFalse();
        assertThat(n2.has("rack")).isFalse();
    }
}
