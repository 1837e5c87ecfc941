package io.libra.core.plan;

/**
 * Cassandra rings: move a single-token node's token, shifting the boundary between it and its
 * predecessor. Tokens are written as in {@code libra.plan/v1} (hex, ordered like the ring).
 *
 * @param sizeBytes bytes whose replica set changes (what streaming must copy); 0 when unknown
 */
public record MoveTokenAction(String node, String fromToken, String toToken, Reason reason, double sizeBytes)
        implements Action {
    public MoveTokenAction(String node, String fromToken, String toToken, Reason reason) {
        this(node, fromToken, toToken, reason, 0);
    }

    @Override
    public MoveTokenAction withReason(Reason r) {
        return new MoveTokenAction(node, fromToken, toToken, r, sizeBytes);
    }
}
