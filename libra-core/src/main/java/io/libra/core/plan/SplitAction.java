package io.libra.core.plan;

/**
 * Replace a region by {@code left = [start, splitKey)} and {@code right = [splitKey, end)} on
 * the same node. {@code ratio} is the share of the region's critical-dimension load expected
 * left of the key.
 */
public record SplitAction(String region, String splitKey, String left, String right, double ratio,
                          Reason reason) implements Action {
    @Override
    public SplitAction withReason(Reason r) {
        return new SplitAction(region, splitKey, left, right, ratio, r);
    }
}
