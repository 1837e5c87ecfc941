package io.libra.core.plan;

/**
 * Cassandra rings: move a single-token node's token, shifting the boundary between it and its
 * predecessor. Tokens are written as in {@code libra.plan/v1} (hex, ordered like the ring).
 */
public record MoveTokenAction(String node, String fromToken, String toToken, Reason reason) implements Action {
    @Override
    public String type() {
        return "moveToken";
    }

    @Override
    public MoveTokenAction withReason(Reason r) {
        return new MoveTokenAction(node, fromToken, toToken, r);
    }
}
