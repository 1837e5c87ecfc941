package io.libra.core.ring;

import io.libra.core.plan.Reason;

/**
 * One {@code moveToken} action: node {@code node} moves its single token. Tokens are signed
 * Murmur3 values; {@link #fromKey()}/{@link #toKey()} give them as hex keys (see {@link Tokens}).
 *
 * @param movedBytes bytes whose replica set changes (what streaming must copy)
 */
public record TokenMove(String node, long fromToken, long toToken, double movedBytes, Reason reason) {
    public String fromKey() {
        return Tokens.toKey(fromToken);
    }

    public String toKey() {
        return Tokens.toKey(toToken);
    }
}
