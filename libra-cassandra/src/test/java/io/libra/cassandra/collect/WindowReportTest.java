package io.libra.cassandra.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Each table's spread over the nodes, and the hottest sampled partitions with their replicas. */
class WindowReportTest {
    /** n1..n3 own (3e18, -9e18], (-9e18, -6e18], (-6e18, 3e18] (RingModelBuilderTest's ring). */
    private static Window withSamples(List<Window.KeySample> samples) {
        Window w = RingModelBuilderTest.window();
        return new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(), samples, 100, 9600, List.of(), w.keyspaces());
    }

    @Test
    void eachTableSaysHowUnevenlyTheNodesServeAndHoldIt() {
        List<WindowReport.TableSkew> skew = WindowReport.tableSkew(RingModelBuilderTest.window());
        assertThat(skew).extracting(WindowReport.TableSkew::table).containsExactly("ks1.kv", "ks3.kv");
        WindowReport.TableSkew ks1 = skew.get(0);
        assertThat(ks1.nodes()).isEqualTo(3);
        assertThat(ks1.opsMaxOverMean()).as("n3 serves 49% of ks1").isCloseTo(0.49 * 3, Offset.offset(1e-9));
        assertThat(ks1.bytesMaxOverMean()).isCloseTo(0.49 * 3, Offset.offset(1e-9));
        assertThat(ks1.hottestNode()).isEqualTo("n3");
        assertThat(skew.get(1).opsMaxOverMean()).as("ks3 is even").isEqualTo(1.0);
    }

    @Test
    void aNodeThatIsDownIsLeftOutOfTheSpread() {
        Window w = RingModelBuilderTest.window();
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        Window.NodeStat n3 = nodes.get(2);
        nodes.set(2, new Window.NodeStat(n3.id(), n3.host(), false, "down", 0, 0, 0, null, List.of(), null, 0, null, null));
        Window down = new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), 0, 0, List.of(),
                w.keyspaces());
        assertThat(WindowReport.tableSkew(down).get(0).nodes()).isEqualTo(2);
        assertThat(WindowReport.tableSkew(down).get(0).hottestNode()).isEqualTo("n1");
    }

    @Test
    void hotPartitionsAreSummedOverTheNodesThatSawThemAndNameTheirReplicas() {
        long hot = 2_900_000_000_000_000_000L; // in n3's arc
        long warm = -7_000_000_000_000_000_000L; // in n2's arc
        Window w = withSamples(List.of(
                new Window.KeySample("ks3", "kv", "n1", hot, 300, 0),
                new Window.KeySample("ks3", "kv", "n2", hot, 200, 50, 40_000),
                new Window.KeySample("ks1", "kv", "n2", warm, 100, 100),
                new Window.KeySample("ks1", "kv", "n3", hot, 10, 0)));
        List<WindowReport.HotPartition> top = WindowReport.hotPartitions(w, 2);
        assertThat(top).hasSize(2);
        assertThat(top.get(0)).isEqualTo(new WindowReport.HotPartition("ks3.kv", hot, 500, 50, 40_000,
                List.of("n3", "n1", "n2")));
        assertThat(top.get(1)).isEqualTo(new WindowReport.HotPartition("ks1.kv", warm, 100, 100, 0, List.of("n2")));
    }

    @Test
    void aKeyspaceWhosePlacementIsUnknownListsNoReplicas() {
        Window w = RingModelBuilderTest.window();
        Window other = new Window(w.start(), w.end(), w.seconds(), w.nodes(), w.tables(),
                List.of(new Window.KeySample("ks9", "kv", "n1", 0, 5, 0)), 5, 10, List.of(), w.keyspaces());
        assertThat(WindowReport.hotPartitions(other, 10)).containsExactly(
                new WindowReport.HotPartition("ks9.kv", 0, 5, 0, 0, List.of()));
    }
}
