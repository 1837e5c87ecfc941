package io.libra.cassandra.exec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rebalance job as kept in the journal: the moves of one plan, how far each got, and what a
 * failure left behind (nodes to clean up, a node left MOVING, the operator's streaming caps to
 * restore). Mutated only under the executor's lock.
 */
public final class Job {
    /** Job states. */
    public enum State { RUNNING, PAUSED, DONE, FAILED, ABORTED, ABANDONED }

    /** Move states. */
    public enum MoveState { PENDING, MOVING, CLEANUP, DONE, FAILED, DRY_RUN, SKIPPED }

    @JsonProperty("jobId")
    public String id;
    @JsonProperty("planId")
    public String planId;
    @JsonProperty("createdAt")
    public String createdAt;
    @JsonProperty("dryRun")
    public boolean dryRun;
    @JsonProperty("state")
    public State state = State.RUNNING;
    @JsonProperty("detail")
    public String detail = "";
    @JsonProperty("abortRequested")
    public boolean abortRequested;
    @JsonProperty("moves")
    public List<Move> moves = new ArrayList<>();
    /**
     * Nodes that hold ranges they no longer own, and the keyspaces to clean on each: recorded
     * before a move is issued, emptied as cleanup succeeds, whatever ended the move.
     */
    @JsonProperty("pendingCleanup")
    public Map<String, List<String>> pendingCleanup = new LinkedHashMap<>();
    /** A node a failed move left MOVING, or null. */
    @JsonProperty("leftMoving")
    public String leftMoving;
    /** What the operator should do about {@link #leftMoving}. */
    @JsonProperty("remedy")
    public String remedy;
    /** Each node's streaming caps before the job ([stream, entire SSTable] MiB/s), restored after it. */
    @JsonProperty("streamThroughputBefore")
    public Map<String, List<Double>> streamThroughputBefore = new LinkedHashMap<>();
    @JsonProperty("events")
    public List<String> events = new ArrayList<>();

    /** One token move. Tokens are hex keys (io.libra.core.ring.Tokens). */
    public static final class Move {
        @JsonProperty("node")
        public String node;
        @JsonProperty("fromToken")
        public String fromToken;
        @JsonProperty("toToken")
        public String toToken;
        /** Bytes the plan expected to stream for this move. */
        @JsonProperty("bytes")
        public double bytes;
        @JsonProperty("state")
        public MoveState state = MoveState.PENDING;
        @JsonProperty("reason")
        public String reason;
        @JsonProperty("error")
        public String error;
        /** While MOVING: what streaming shows. */
        @JsonProperty("progress")
        public String progress;
        @JsonProperty("cleanedUp")
        public List<String> cleanedUp = new ArrayList<>();
    }

    public boolean finished() {
        return state == State.DONE || state == State.FAILED || state == State.ABORTED || state == State.ABANDONED;
    }

    /** How many (node, keyspace) cleanups are still owed. */
    public int cleanupsPending() {
        return pendingCleanup.values().stream().mapToInt(List::size).sum();
    }
}
