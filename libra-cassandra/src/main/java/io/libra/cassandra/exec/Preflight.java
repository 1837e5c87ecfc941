package io.libra.cassandra.exec;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.RingOps;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The checks before each move, each refusing with one line: the receiving nodes have room for
 * twice what they will gain and no cleanup pending, the schema agrees, no hints wait to be
 * delivered, and no repair runs. The last three pass by themselves, so the executor waits for
 * them (reporting why) and refuses only when they outlast move_timeout_seconds; {@link #check}
 * does not repeat them, because a hint written just after the wait (a node back from a restart
 * under load) would otherwise fail the job instead of holding it.
 */
final class Preflight {
    private Preflight() {
    }

    /**
     * Null when the receivers ({@link LostRanges#gaining}) can take the move, else why not (the transient
     * checks are the wait's).
     *
     * @throws IOException when a node cannot be asked: the executor waits and looks again, as for a busy ring
     */
    static String check(Job j, Job.Move m, Set<String> receiving, Map<String, RingOps> nodes, SidecarConfig.Execution c)
            throws IOException {
        for (String id : receiving) {
            if (j.pendingCleanup.containsKey(id)) {
                return id + " would receive ranges but has cleanup pending (" + j.pendingCleanup.get(id)
                        + "): it must be cleaned first";
            }
            String disk = disk(nodes.get(id), m.bytes, c);
            if (disk != null) {
                return disk;
            }
        }
        return null;
    }

    /** The conditions that pass by themselves (schema agreement, hints delivered, repair over); null when clear. */
    static String transientCheck(Map<String, RingOps> nodes) {
        try {
            for (RingOps n : nodes.values()) {
                String why = quiet(n);
                if (why != null) {
                    return why;
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "cannot check the ring: " + RingGate.firstLine(e);
        }
    }

    private static String disk(RingOps n, double gain, SidecarConfig.Execution c) throws IOException {
        long free = n.freeDiskBytes();
        if (free < 0) {
            return c.checkFreeDisk ? "cannot see " + n.id() + "'s free disk (the sidecar is not on its host): "
                    + "run it co-located, or set execution.check_free_disk: false to move without this check" : null;
        }
        if (free < 2 * gain) {
            return String.format(Locale.ROOT, "%s has %.1f MB free, needs at least 2 x %.1f MB for the ranges it receives",
                    n.id(), free / 1e6, gain / 1e6);
        }
        return null;
    }

    private static String quiet(RingOps n) throws IOException {
        Map<String, List<String>> versions = n.schemaVersions();
        long agreeing = versions.keySet().stream().filter(v -> !v.equals("UNREACHABLE")).count();
        if (agreeing > 1) {
            return "schema disagreement seen by " + n.id() + ": " + agreeing + " versions " + versions.keySet();
        }
        int hints = n.pendingHints();
        if (hints > 0) {
            return n.id() + " holds hints for " + hints + " node(s), not yet delivered";
        }
        int repairs = n.repairSessions();
        if (repairs > 0) {
            return "a repair is running (" + n.id() + ": " + repairs + " session(s))";
        }
        return null;
    }
}
