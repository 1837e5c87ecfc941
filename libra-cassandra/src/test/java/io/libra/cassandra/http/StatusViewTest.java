package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
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
        return c;
    }

    private static JsonNode status(Window w) {
        DaemonView v = new DaemonView(config(), Instant.EPOCH, 1, null, w, null, null, null, null, null, "x", false, true, 3,
                false, null);
        return Views.status(v);
    }

    @Test
    void eachNodeShowsTheDataCentreAndRackItsSnitchGives() {
        JsonNode nodes = status(RingModelBuilderTest.window()).path("nodes");
        assertThat(nodes.findValuesAsText("datacenter")).containsExactly("dc1", "dc1", "dc1");
        assertThat(nodes.findValuesAsText("rack")).containsExactly("rack1", "rack2", "rack1");
    }

    @Test
    void aNodeThatDidNotAnswerHasNoPlacement() {
        Window w = RingModelBuilderTest.window();
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        nodes.set(1, new Window.NodeStat("n2", "127.0.0.2", false, "unreachable", 0, 0, 0, "none", null, "DOWN", -1, null,
                null));
        JsonNode n2 = status(new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(),
                w.requestOps(), List.of("node n2 is unreachable over JMX"))).path("nodes").get(1);
        assertThat(n2.path("up").asBoolean()).isFalse();
        assertThat(n2.has("datacenter")).isFalse();
        assertThat(n2.has("rack")).isFalse();
    }
}
