package io.libra.cassandra.exec;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.jmx.RingOps;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Both streaming caps (stream_throughput and entire_sstable_stream_throughput) for the length of
 * a job: the operator's values are journaled first and put back when the job ends, on every path.
 */
final class Throughput {
    private Throughput() {
    }

    /** Saves each node's caps (once per job: a resumed job keeps the first values) and sets the job's. */
    static void cap(Job j, Map<String, RingOps> nodes, SidecarConfig.Execution c, JobBook book) throws IOException {
        for (RingOps n : nodes.values()) {
            if (!j.streamThroughputBefore.containsKey(n.id())) {
                double[] before = n.streamThroughput();
                book.update(j, () -> j.streamThroughputBefore.put(n.id(), List.of(before[0], before[1])));
            }
            n.setStreamThroughput(c.streamThroughputMibPerSec, c.entireSstableStreamThroughputMibPerSec);
        }
        book.event(j, "streaming capped at " + c.streamThroughputMibPerSec + " MiB/s (entire SSTables "
                + c.entireSstableStreamThroughputMibPerSec + " MiB/s) on every node");
    }

    /** Puts the saved caps back; a node that does not answer keeps its entry, to be retried. */
    static void restore(Job j, Map<String, RingOps> nodes, JobBook book) {
        for (String id : List.copyOf(j.streamThroughputBefore.keySet())) {
            RingOps n = nodes.get(id);
            List<Double> v = j.streamThroughputBefore.get(id);
            try {
                if (n != null) {
                    n.setStreamThroughput((int) Math.round(v.get(0)), (int) Math.round(v.get(1)));
                }
                book.update(j, () -> j.streamThroughputBefore.remove(id), "restored " + id + "'s streaming caps ("
                        + v.get(0) + " / " + v.get(1) + " MiB/s)");
            } catch (IOException | RuntimeException e) {
                book.event(j, "could not restore " + id + "'s streaming caps yet: " + RingGate.firstLine(e));
            }
        }
    }
}
