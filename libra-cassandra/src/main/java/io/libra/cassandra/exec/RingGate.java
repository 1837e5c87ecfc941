package io.libra.cassandra.exec;

import io.libra.cassandra.jmx.CassandraNode;
import java.io.IOException;
import java.util.Collection;

/**
 * The safety gate before and after a move: every node reachable and NORMAL, nobody joining,
 * leaving or moving, no node unreachable in gossip, and no streams running anywhere.
 */
final class RingGate {
    private RingGate() {
    }

    /** Null when the ring is safe to change, else why not (one line). */
    static String check(Collection<CassandraNode> nodes) {
        boolean gossipChecked = false;
        for (CassandraNode n : nodes) {
            try {
                String mode = n.operationMode();
                if (!"NORMAL".equals(mode)) {
                    return "node " + n.id() + " is " + mode;
                }
                if (!gossipChecked) {
                    for (String attr : new String[] {"UnreachableNodes", "JoiningNodes", "LeavingNodes", "MovingNodes"}) {
                        if (!n.nodes(attr).isEmpty()) {
                            return attr.replace("Nodes", "").toLowerCase(java.util.Locale.ROOT) + " nodes: " + n.nodes(attr);
                        }
                    }
                    gossipChecked = true;
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

    static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
