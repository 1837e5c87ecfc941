package io.libra.cassandra.collect;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last windows of an unchanged ring pooled into one, for the add-node advice on a vnode ring:
 * one short window's request counts vary by a few percent per node, and a capacity decision
 * should not rest on that. Windows pool while every node is up with the same tokens; anything
 * else starts the pool again. Rates are weighted by each window's seconds; sizes and problems are
 * the newest window's (an older window's problem need not hold now).
 */
public final class WindowPool {
    private final int capacity;
    private final Deque<Window> windows = new ArrayDeque<>();

    /** @param capacity how many windows to pool at most (the newest kept) */
    public WindowPool(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds the newest window and returns the pool's windows as one (the window itself when it cannot pool). */
    public Window add(Window w) {
        if (!poolable(w)) {
            windows.clear();
            return w;
        }
        if (!windows.isEmpty() && !sameRing(windows.peekLast(), w)) {
            windows.clear();
        }
        windows.addLast(w);
        while (windows.size() > capacity) {
            windows.removeFirst();
        }
        return pooled(List.copyOf(windows));
    }

    /** How many windows the last {@link #add} pooled. */
    public int size() {
        return windows.size();
    }

    private static boolean poolable(Window w) {
        return w.nodes().stream().allMatch(Window.NodeStat::up);
    }

    private static boolean sameRing(Window a, Window b) {
        return tokens(a).equals(tokens(b));
    }

    private static Map<String, List<Long>> tokens(Window w) {
        Map<String, List<Long>> out = new LinkedHashMap<>();
        w.nodes().forEach(n -> out.put(n.id(), n.tokens()));
        return out;
    }

    /** The windows (oldest first, one ring) as one window over their seconds. */
    static Window pooled(List<Window> ws) {
        Window last = ws.get(ws.size() - 1);
        if (ws.size() == 1) {
            return last;
        }
        double seconds = ws.stream().mapToDouble(Window::seconds).sum();
        List<Window.NodeStat> nodes = last.nodes().stream().map(n -> node(ws, n, seconds)).toList();
        List<Window.TableStat> tables = last.tables().stream().map(t -> table(ws, t, seconds)).toList();
        List<Window.KeySample> samples = ws.stream().flatMap(w -> w.samples().stream()).toList();
        return new Window(ws.get(0).start(), last.end(), seconds, nodes, tables, samples,
                ws.stream().mapToLong(Window::sampledOps).sum(), ws.stream().mapToLong(Window::requestOps).sum(),
                last.problems(), last.keyspaces());
    }

    private static Window.NodeStat node(List<Window> ws, Window.NodeStat n, double seconds) {
        double cpu = 0;
        double disk = 0;
        for (Window w : ws) {
            Window.NodeStat s = w.nodes().stream().filter(x -> x.id().equals(n.id())).findFirst().orElseThrow();
            cpu += s.cpuUsage() * w.seconds();
            disk += s.diskBytesPerSec() * w.seconds();
        }
        return new Window.NodeStat(n.id(), n.host(), n.up(), n.error(), n.cpuCores(), cpu / seconds, disk / seconds,
                n.diskSource(), n.tokens(), n.mode(), n.pid(), n.datacenter(), n.rack());
    }

    /** The table's rates over the pooled seconds; a window that did not report it counts as none. */
    private static Window.TableStat table(List<Window> ws, Window.TableStat t, double seconds) {
        double reads = 0;
        double writes = 0;
        for (Window w : ws) {
            for (Window.TableStat s : w.tables()) {
                if (s.keyspace().equals(t.keyspace()) && s.table().equals(t.table()) && s.node().equals(t.node())) {
                    reads += s.readOps() * w.seconds();
                    writes += s.writeOps() * w.seconds();
                }
            }
        }
        return new Window.TableStat(t.keyspace(), t.table(), t.replicationFactor(), t.node(), reads / seconds,
                writes / seconds, t.liveBytes());
    }
}
