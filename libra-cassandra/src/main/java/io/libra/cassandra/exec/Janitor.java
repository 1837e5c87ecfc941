package io.libra.cassandra.exec;

import io.libra.cassandra.jmx.RingOps;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the cleanups a job owes (the journal's pendingCleanup) once the ring is NORMAL, and
 * checks Cassandra's status for each: only a cleanup that succeeded is struck off.
 */
final class Janitor {
    private final Map<String, RingOps> nodes;
    private final JobBook book;
    private final Duration limit;

    Janitor(Map<String, RingOps> nodes, JobBook book, Duration limit) {
        this.nodes = nodes;
        this.book = book;
        this.limit = limit;
    }

    /** Cleans every pending (node, keyspace) now; false at the first that fails (it stays pending). */
    boolean cleanNow(Job j, Job.Move current) {
        for (String id : new ArrayList<>(j.pendingCleanup.keySet())) {
            RingOps n = nodes.get(id);
            for (String ks : new ArrayList<>(j.pendingCleanup.getOrDefault(id, List.of()))) {
                String failure = clean(n, id, ks);
                if (failure != null) {
                    book.event(j, failure + ": still pending, retried when the ring is NORMAL");
                    return false;
                }
                book.update(j, () -> {
                    List<String> left = j.pendingCleanup.get(id);
                    left.remove(ks);
                    if (left.isEmpty()) {
                        j.pendingCleanup.remove(id);
                    }
                    if (current != null) {
                        current.cleanedUp.add(id + ":" + ks);
                    }
                }, "cleaned up " + ks + " on " + id);
            }
        }
        return true;
    }

    private String clean(RingOps n, String id, String ks) {
        if (n == null) {
            return "cleanup of " + ks + " on " + id + ": the node is not configured";
        }
        try {
            int status = n.cleanup(ks, limit);
            return status == 0 ? null : "cleanup of " + ks + " on " + id + " ended with status " + status
                    + (status == 1 ? " (aborted)" : status == 2 ? " (unable to cancel)" : "");
        } catch (IOException | RuntimeException e) {
            return "cleanup of " + ks + " on " + id + " failed: " + RingGate.firstLine(e);
        }
    }
}
