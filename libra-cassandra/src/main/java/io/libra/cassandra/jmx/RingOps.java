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

    /** The keyspace's replication: strategy and options, e.g. "NetworkTopologyStrategy {dc1=3}". */
    String replicationInfo(String keyspace) throws IOException;

    /** This node's data centre, as its snitch reports it. */
    String datacenter() throws IOException;

    /** This node's rack, as its snitch reports it. */
    String rack() throws IOException;

    int currentStreams() throws IOException;

    /** StorageService.move: blocks until the node's streaming is done, bounded by {@code limit}. */
    void move(String newToken, Duration limit) throws IOException;

    /** Every keyspace the ring replicates (not LocalStrategy): system_auth and system_distributed included. */
    List<String> replicatedKeyspaces() throws IOException;

    /** Cleanup of one keyspace, bounded by {@code limit}: Cassandra's status, 0 when it succeeded. */
    int cleanup(String keyspace, Duration limit) throws IOException;

    /** The operator's caps, MiB/s (0: unlimited): [stream_throughput, entire_sstable_stream_throughput]. */
    double[] streamThroughput() throws IOException;

    /** Sets both streaming caps, MiB/s (0: unlimited). */
    void setStreamThroughput(int mibPerSec, int entireSstableMibPerSec) throws IOException;

    /** Schema versions to the endpoints on each, as this node sees them (UNREACHABLE ones under that key). */
    Map<String, List<String>> schemaVersions() throws IOException;

    /** Hints this node holds for other nodes, not yet delivered. */
    int pendingHints() throws IOException;

    /** Repair sessions running with this node as a participant. */
    int repairSessions() throws IOException;

    /** Free bytes on the node's fullest data directory, or -1 when the daemon cannot see its disks. */
    long freeDiskBytes() throws IOException;
}
