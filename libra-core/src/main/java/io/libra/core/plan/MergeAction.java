package io.libra.core.plan;

import java.util.List;

/** Merge adjacent cold regions of one table on one node into {@code merged}. Low priority. */
public record MergeAction(List<String> regions, String merged, String node, Reason reason) implements Action {
    public MergeAction {
        regions = List.copyOf(regions);
    }

    @Override
    public MergeAction withReason(Reason r) {
        return new MergeAction(regions, merged, node, r);
    }
}
