package io.libra.cassandra;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.http.AllocatorComparison;
import io.libra.cassandra.http.Views;
import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.format.FormatException;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.ring.VnodeRing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code libra-sidecar --advise-add-node SNAPSHOT}: the advice {@code GET /api/v1/advice/add-node}
 * gives, on a saved snapshot instead of the live window (core's {@link SnapshotRing} reads the
 * ring back, estimated with the paper's mapping as the daemon does by default). A vnode ring's
 * snapshot gets the vnode advice, each keyspace placed by SimpleStrategy at the replication factor
 * its sub-ranges show (a snapshot carries no topology).
 */
final class AddNodeAdvice {
    private AddNodeAdvice() {
    }

    /** @throws IllegalArgumentException one line naming the file and field when the snapshot cannot be advised on */
    static ObjectNode of(Path file, int count, int slicesPerSubrange, String tokens) throws IOException {
        return of(file, count, slicesPerSubrange, tokens, Optional.empty());
    }

    /** As {@link #of(Path, int, int, String)}, compared with Cassandra's own allocator when {@code allocator} is present. */
    static ObjectNode of(Path file, int count, int slicesPerSubrange, String tokens, Optional<AllocatorComparison> allocator)
            throws IOException {
        java.util.List<Long> evaluate = Views.tokens(tokens);
        ClusterSnapshot s;
        try {
            s = SnapshotCodec.read(file.toString(), Files.readAllBytes(file));
        } catch (FormatException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        try {
            LoadModel model = Planner.builder().learning(false).build().estimate(s);
            boolean vnodes = SnapshotRing.allTokens(s).values().stream().anyMatch(t -> t.size() > 1);
            if (vnodes) {
                VnodeRing ring = SnapshotRing.vnodes(s, model);
                ObjectNode advice = Views.addVnodes(ring, slicesPerSubrange, count, null, evaluate);
                allocator.ifPresent(c -> c.addTo(advice, ring, slicesPerSubrange, count, null));
                return advice;
            }
            RingLoad ring = SnapshotRing.of(s, model);
            ObjectNode advice = Views.addNode(ring, slicesPerSubrange, count, null, evaluate);
            allocator.ifPresent(c -> c.addTo(advice, ring, slicesPerSubrange, count, null));
            return advice;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
