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
 * Cassandra's own token allocator, as a node started with allocate_tokens_for_local_replication_factor
 * runs it, offline: run with the node's libraries on the classpath (java's source launcher).
 * Arguments: RF NUM_TOKENS JOINING_ADDRESS then ADDRESS=TOKEN,TOKEN,... per ring member.
 * Prints one line: TOKENS t1,t2,...
 */
public class TokenAllocatorMain {
    public static void main(String[] args) throws Exception {
        DatabaseDescriptor.clientInitialization();
        DatabaseDescriptor.setPartitionerUnsafe(Murmur3Partitioner.instance);
        DatabaseDescriptor.setEndpointSnitch(new SimpleSnitch());
        TokenMetadata ring = new TokenMetadata();
        for (int i = 3; i < args.length; i++) {
            String[] member = args[i].split("=", 2);
            List<Token> tokens = new ArrayList<>();
            for (String t : member[1].split(",")) {
                tokens.add(new Murmur3Partitioner.LongToken(Long.parseLong(t)));
            }
            ring.updateNormalTokens(tokens, InetAddressAndPort.getByName(member[0]));
        }
        Collection<Token> chosen = TokenAllocation.allocateTokens(ring, Integer.parseInt(args[0]),
                InetAddressAndPort.getByName(args[2]), Integer.parseInt(args[1]));
        StringBuilder out = new StringBuilder("TOKENS ");
        for (Token t : chosen) {
            out.append(out.length() > 7 ? "," : "").append(t.getTokenValue());
        }
        System.out.println(out);
    }
}
