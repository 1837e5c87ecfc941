package io.libra.cassandra.allocator;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.dht.tokenallocator.TokenAllocation;
import org.apache.cassandra.locator.InetAddressAndPort;
import org.apache.cassandra.locator.SimpleSnitch;
import org.apache.cassandra.locator.TokenMetadata;

/**
 * Cassandra's own token allocator, as a node started with
 * {@code allocate_tokens_for_local_replication_factor} runs it at bootstrap, offline. It runs in
 * a child JVM whose classpath is the node's own Cassandra jars ({@link CassandraAllocator}), never
 * in the sidecar's: only this class is compiled against cassandra-all.
 *
 * <p>Arguments: RF NUM_TOKENS COUNT; standard input: one line per ring member, its tokens
 * (signed decimals, comma-separated; a large vnode ring would not fit in a command line). The
 * COUNT joining nodes are allocated one after another, each joining the ring before the next, as
 * they bootstrap one at a time. Prints one line per joining node: {@code TOKENS t1,t2,...}.
 * Addresses only tell nodes apart here (one rack, SimpleSnitch), so each gets a made-up one.
 */
public final class TokenAllocatorMain {
    /** Reserved addresses (240.0.0.0/4): members are 241.x.y.z, joining nodes 240.0.0.k. */
    private static final String JOINING = "240.0.0.";

    private TokenAllocatorMain() {
    }

    public static void main(String[] args) throws Exception {
        DatabaseDescriptor.clientInitialization();
        DatabaseDescriptor.setPartitionerUnsafe(Murmur3Partitioner.instance);
        DatabaseDescriptor.setEndpointSnitch(new SimpleSnitch());
        int rf = Integer.parseInt(args[0]);
        int numTokens = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        TokenMetadata ring = new TokenMetadata();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int i = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            List<Token> tokens = new ArrayList<>();
            for (String t : line.split(",")) {
                tokens.add(new Murmur3Partitioner.LongToken(Long.parseLong(t.strip())));
            }
            ring.updateNormalTokens(tokens, InetAddressAndPort.getByName("241." + (i >> 16 & 255) + "." + (i >> 8 & 255)
                    + "." + (i & 255)));
            i++;
        }
        for (int k = 1; k <= count; k++) {
            InetAddressAndPort joining = InetAddressAndPort.getByName(JOINING + k);
            Collection<Token> chosen = TokenAllocation.allocateTokens(ring, rf, joining, numTokens);
            StringBuilder out = new StringBuilder();
            for (Token t : chosen) {
                out.append(out.length() > 0 ? "," : "").append(t.getTokenValue());
            }
            System.out.println("TOKENS " + out);
            ring.updateNormalTokens(chosen, joining);
        }
    }
}
