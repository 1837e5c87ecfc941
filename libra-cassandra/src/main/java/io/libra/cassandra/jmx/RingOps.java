package io.libra.cassandra.jmx;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the executor asks of and does to one node: the seam between the job logic and JMX, so
 * that the normal, abort and failure paths are tested against a fake ring.
 */
public interface RingOps {
    String id();

    /** The node's broadcast address, as gossip names it. */
    String host();

    String operationMode() throws IOException;

    /** A StorageService endpoint list: UnreachableNodes, JoiningNodes, LeavingNodes, MovingNodes. */
    List<String> nodes(String attribute) throws IOException;

    /** This node's own tokens (signed decimal strings). */
    List<String> tokens() throws IOException;

    /** Every token of the ring (signed decimal) to its endpoint, as this node sees it. */
    Map<String, String> tokenToEndpoint() throws IOException;

    /** User keyspaces (those the client load lands in). */
    List<String> keyspaces() throws IOException;

    int replicationFactor(String keyspace) throws IOException;

    int currentStreams() throws IOException;

    /** StorageService.move: blocks until the node's streaming is done, bounded by {@code limit}. */
    void move(String newToken, Duration limit) throws IOException;

    /** Cleanup of one keyspace, bounded by {@code limit}. */
    void cleanup(String keyspace, Duration limit) throws IOException;

    void setStreamThroughput(int mibPerSec) throws IOException;
}
