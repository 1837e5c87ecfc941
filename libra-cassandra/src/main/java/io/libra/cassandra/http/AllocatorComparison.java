package io.libra.cassandra.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.allocator.CassandraAllocator;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.plan.Balance;
import io.libra.core.ring.AddNodeAdvisor;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.RingTopology;
import io.libra.core.ring.VnodeAdvisor;
import io.libra.core.ring.VnodeRing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The add-node advice's {@code cassandraAllocator}: the tokens Cassandra's own allocator
 * ({@code allocate_tokens_for_local_replication_factor}) gives the same joining nodes, and the
 * balance they would reach by the same model, when {@code advice.cassandra_home} names an
 * installation. The allocator runs with one rack, so on a ring whose nodes are in several data
 * centres or racks it is not compared (the block says so). A failed run is one line in the block:
 * the advice itself stands.
 *
 * @param allocator the installation's allocator, run in a child JVM
 * @param rf        the joining nodes' {@code allocate_tokens_for_local_replication_factor}
 */
public record AllocatorComparison(CassandraAllocator allocator, int rf) {
    private static final Logger LOG = LoggerFactory.getLogger(AllocatorComparison.class);

    /** Empty when {@code advice.cassandra_home} is not set. */
    public static Optional<AllocatorComparison> of(SidecarConfig.Advice a) {
        if (a == null || a.cassandraHome == null) {
            return Optional.empty();
        }
        Path java = a.java == null ? CassandraAllocator.currentJava() : Path.of(a.java);
        return Optional.of(new AllocatorComparison(new CassandraAllocator(Path.of(a.cassandraHome), java,
                Duration.ofSeconds(a.allocatorTimeoutSeconds)), a.allocatorReplicationFactor));
    }

    /** On a single-token ring: one token per joining node. */
    public void addTo(ObjectNode advice, RingLoad ring, int slicesPerSubrange, int count, RingTopology.Place place) {
        List<List<Long>> members = ring.nodes().stream().map(n -> List.of(n.token())).toList();
        addTo(advice, count, 1, members, ring.places(), nodes -> new AddNodeAdvisor(slicesPerSubrange)
                .evaluateJoining(ring, nodes.stream().map(t -> t.get(0)).toList(), place));
    }

    /** On a vnode ring: each joining node takes the ring's num_tokens. */
    public void addTo(ObjectNode advice, VnodeRing ring, int slicesPerSubrange, int count, RingTopology.Place place) {
        List<List<Long>> members = ring.members().stream().map(VnodeRing.Member::tokens).toList();
        addTo(advice, count, ring.numTokens(), members, ring.places(), nodes -> new VnodeAdvisor(slicesPerSubrange)
                .evaluateJoining(ring, nodes, place));
    }

    private void addTo(ObjectNode advice, int count, int numTokens, List<List<Long>> members,
                       Map<String, RingTopology.Place> places, Function<List<List<Long>>, Balance> evaluate) {
        ObjectNode o = advice.putObject("cassandraAllocator");
        if (!places.isEmpty() && Views.onlyPlace(places) == null) {
            o.put("skipped", "the ring's nodes are in several data centres or racks, and the allocator is run here"
                    + " with one rack, so it is not compared");
            return;
        }
        List<List<Long>> nodes;
        try {
            nodes = allocator.allocate(rf, numTokens, count, members);
        } catch (CassandraAllocator.AllocatorException e) {
            LOG.warn("add-node advice: {}", e.getMessage());
            o.put("error", e.getMessage());
            return;
        }
        o.put("replicationFactor", rf);
        ArrayNode tokens = o.putArray("initialTokens");
        nodes.forEach(n -> tokens.add(n.stream().map(String::valueOf).collect(Collectors.joining(","))));
        Views.balance(o.putObject("predicted"), evaluate.apply(nodes));
        o.put("method", "Cassandra's own allocator (TokenAllocation.allocateTokens, as a node started with "
                + "allocate_tokens_for_local_replication_factor: " + rf + " runs it) from the jars in " + allocator.home()
                + ", nodes joining one after another");
    }
}
