package io.libra.cassandra.exec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * A rebalance job as kept in the journal: the moves of one plan and how far each got.
 * Mutated only by the executor's thread (and read by the API under the executor's lock).
 */
public final class Job {
    /** Job states. */
    public enum State { RUNNING, PAUSED, DONE, FAILED, ABANDONED }

    /** Move states. */
    public enum MoveState { PENDING, MOVING, CLEANUP, DONE, FAILED, DRY_RUN, SKIPPED }

    @JsonProperty("jobId")
    public String id;
    @JsonProperty("createdAt")
    public String createdAt;
    @JsonProperty("dryRun")
    public boolean dryRun;
    @JsonProperty("state")
    public State state = State.RUNNING;
    @JsonProperty("detail")
    public String detail = "";
    @JsonProperty("moves")
    public List<Move> moves = new ArrayList<>();
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
        @JsonProperty("cleanedUp")
        public List<String> cleanedUp = new ArrayList<>();
    }

    public boolean finished() {
        return state == State.DONE || state == State.FAILED || state == State.ABANDONED;
    }
}
