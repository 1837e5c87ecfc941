package io.libra.cassandra.exec;

import io.libra.cassandra.jmx.RingOps;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The safety gate before and after a move: every node reachable and NORMAL, nobody joining,
 * leaving or moving, no node unreachable in gossip, and no streams running anywhere.
 */
final class RingGate {
    private RingGate() {
    }

    /** Null when the ring is safe to change, else why not (one line). */
    static String check(Collection<? extends RingOps> nodes) {
        for (RingOps n : nodes) {
            try {
                String mode = n.operationMode();
                if (!"NORMAL".equals(mode)) {
                    return "node " + n.id() + " is " + mode;
                }
            } catch (IOException | RuntimeException e) {
                return "node " + n.id() + " is unreachable over JMX: " + firstLine(e);
            }
        }
        for (RingOps n : nodes) {
            try {
                for (String attr : new String[] {"UnreachableNodes", "JoiningNodes", "LeavingNodes", "MovingNodes"}) {
                    List<String> endpoints = n.nodes(attr);
                    if (!endpoints.isEmpty()) {
                        return "node " + n.id() + " sees " + attr.replace("Nodes", "").toLowerCase(Locale.ROOT)
                                + " nodes " + named(nodes, endpoints);
                    }
                }
                int streams = n.currentStreams();
                if (streams > 0) {
                    return "node " + n.id() + " has " + streams + " streams running";
                }
            } catch (IOException | RuntimeException e) {
                return "node " + n.id() + " is unreachable over JMX: " + firstLine(e);
            }
        }
        return null;
    }

    /** Gossip endpoints as configured ids where known: "n2 (127.0.0.2)". */
    private static String named(Collection<? extends RingOps> nodes, List<String> endpoints) {
        StringBuilder sb = new StringBuilder();
        for (String e : endpoints) {
            String ip = e.startsWith("/") ? e.substring(1) : e;
            String id = nodes.stream().filter(n -> ip.equals(n.host()) || ip.startsWith(n.host() + ":"))
                    .map(RingOps::id).findFirst().orElse(null);
            sb.append(sb.length() > 0 ? ", " : "").append(id == null ? ip : id + " (" + ip + ")");
        }
        return sb.toString();
    }

    static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
