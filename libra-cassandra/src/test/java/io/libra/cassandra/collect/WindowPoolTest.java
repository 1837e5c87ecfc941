package io.libra.cassandra.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** A vnode ring's windows pooled while the ring is unchanged, for the add-node advice. */
class WindowPoolTest {
    private static final Offset<Double> EXACT = Offset.offset(1e-9);

    /** {@link RingModelBuilderTest#vnodes()} measured {@code seconds} long, ending {@code at} s, n1's rates times {@code n1}. */
    private static Window window(int at, double seconds, double n1) {
        Window w = RingModelBuilderTest.vnodes();
        List<Window.NodeStat> nodes = new ArrayList<>();
        for (Window.NodeStat n : w.nodes()) {
            double f = n.id().equals("n1") ? n1 : 1;
            nodes.add(new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), n.cpuUsage() * f,
                    n.diskBytesPerSec() * f, n.diskSource(), n.tokens(), n.mode(), n.pid(), n.datacenter(), n.rack()));
        }
        List<Window.TableStat> tables = w.tables().stream().map(t -> t.node().equals("n1")
                ? new Window.TableStat(t.keyspace(), t.table(), t.replicationFactor(), t.node(), t.readOps() * n1,
                        t.writeOps() * n1, t.liveBytes() + at)
                : t).toList();
        java.time.Instant end = java.time.Instant.EPOCH.plusSeconds(at);
        return new Window(end.minus(Duration.ofMillis((long) (seconds * 1000))), end, seconds, nodes, tables, List.of(),
                0, 100, w.problems(), w.keyspaces());
    }

    private static Window.TableStat n1ks1(Window w) {
        return w.tables().stream().filter(t -> t.node().equals("n1") && t.keyspace().equals("ks1")).findFirst().orElseThrow();
    }

    @Test
    void windowsOfOneRingPoolTheirRatesBySecondsAndKeepTheNewestSizes() {
        WindowPool pool = new WindowPool(3);
        Window first = window(10, 10, 1.0);
        assertThat(pool.add(first)).as("one window is itself").isEqualTo(first);
        Window pooled = pool.add(window(40, 30, 2.0));
        assertThat(pool.size()).isEqualTo(2);
        assertThat(pooled.seconds()).isEqualTo(40.0);
        assertThat(pooled.start()).isEqualTo(first.start());
        assertThat(pooled.requestOps()).isEqualTo(200);
        double n1Writes = n1ks1(first).writeOps();
        assertThat(n1ks1(pooled).writeOps()).as("(10 s x 1 + 30 s x 2) / 40 s").isCloseTo(n1Writes * 1.75, EXACT);
        assertThat(n1ks1(pooled).liveBytes()).as("the newest size").isEqualTo(n1ks1(first).liveBytes() + 30);
        Window.NodeStat n1 = pooled.nodes().get(0);
        assertThat(n1.diskBytesPerSec()).isCloseTo(first.nodes().get(0).diskBytesPerSec() * 1.75, EXACT);
        assertThat(pooled.nodes().get(1).cpuUsage()).as("n2 the same in both").isCloseTo(first.nodes().get(1).cpuUsage(), EXACT);
    }

    @Test
    void thePoolKeepsTheNewestWindowsUpToItsCapacity() {
        WindowPool pool = new WindowPool(2);
        pool.add(window(10, 10, 5.0));
        pool.add(window(20, 10, 1.0));
        Window pooled = pool.add(window(30, 10, 3.0));
        assertThat(pool.size()).isEqualTo(2);
        assertThat(n1ks1(pooled).writeOps()).as("the first window (x5) is out").isCloseTo(n1ks1(window(0, 10, 2.0)).writeOps(), EXACT);
    }

    @Test
    void aRingWhoseTokensChangedOrWithANodeDownStartsThePoolAgain() {
        WindowPool pool = new WindowPool(4);
        pool.add(window(10, 10, 1.0));
        Window joined = withTokensOfN1(window(20, 10, 3.0), List.of(1L, 2L, 3L, 4L));
        assertThat(pool.add(joined)).as("n1 took other tokens").isEqualTo(joined);
        assertThat(pool.size()).isEqualTo(1);
        Window down = withN2Down(window(30, 10, 1.0));
        assertThat(pool.add(down)).isEqualTo(down);
        assertThat(pool.size()).as("a window with a node down is not pooled").isZero();
        Window after = window(40, 10, 1.0);
        assertThat(pool.add(after)).as("the window with n2 down pools with nothing").isEqualTo(after);
        assertThat(pool.size()).isEqualTo(1);
    }

    private static Window withTokensOfN1(Window w, List<Long> tokens) {
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        Window.NodeStat n = nodes.get(0);
        nodes.set(0, new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), n.cpuUsage(), n.diskBytesPerSec(),
                n.diskSource(), tokens, n.mode(), n.pid(), n.datacenter(), n.rack()));
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }

    private static Window withN2Down(Window w) {
        List<Window.NodeStat> nodes = new ArrayList<>(w.nodes());
        Window.NodeStat n = nodes.get(1);
        nodes.set(1, new Window.NodeStat(n.id(), n.host(), false, "down", 0, 0, 0, null, List.of(), null, 0, null, null));
        return new Window(w.start(), w.end(), w.seconds(), nodes, w.tables(), w.samples(), w.sampledOps(), w.requestOps(),
                w.problems(), w.keyspaces());
    }
}
