package io.libra.core.schedule;

import io.libra.core.estimate.RegionCosts;
import io.libra.core.model.Dimension;
import io.libra.core.model.RegionCounters;
import io.libra.core.split.RegionSplitter;
import io.libra.core.split.SplitPointFinder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Load-based splitting for the split candidate queue. Each cut takes off a piece of the
 * critical dimension's load that the least-loaded node can still take under the load
 * constraint, but never less than a little under λ/2 (Theorem 1's bound, which guarantees the
 * pieces can be scheduled) and never more than half the region. Sizing pieces by the room that
 * exists keeps the number of splits, and of regions the store must manage, low. Only what is
 * needed is split; a remainder that is still too heavy is cut again later.
 */
final class SplitProposer {
    private static final double PIECE_SHARE_OF_BOUND = 0.9;

    private final WorkingState state;
    private final SchedulerConfig config;
    private final RegionCosts costs;
    private final RegionSplitter splitter;
    private final SplitBound bound;

    private final ToDoubleFunction<Dimension> coolestLoad;

    SplitProposer(WorkingState state, PlanningContext context, ToDoubleFunction<Dimension> coolestLoad) {
        this.state = state;
        this.coolestLoad = coolestLoad;
        this.config = context.config();
        this.costs = state.costs();
        this.splitter = new RegionSplitter(costs);
        this.bound = new SplitBound(config.splitBound());
    }

    record Proposal(int region, String key, double ratio) {
    }

    List<Proposal> propose(List<Integer> candidates, int source, Dimension d, BitSet unsplittable) {
        List<Proposal> out = new ArrayList<>();
        for (int r : candidates) {
            Proposal p = propose(r, source, d);
            if (p == null) {
                unsplittable.set(r);
            } else {
                out.add(p);
            }
        }
        return out;
    }

    private Proposal propose(int r, int source, Dimension d) {
        double x = state.share(r, d, source);
        if (x <= 0) {
            return null;
        }
        double room = PIECE_SHARE_OF_BOUND * (1 + config.lambda() - coolestLoad.applyAsDouble(d));
        double piece = Math.min(Math.max(PIECE_SHARE_OF_BOUND * config.splitBound(), room), x / 2);
        double ratio = piece / x;
        var region = state.region(r).region();
        String key = SplitPointFinder.fromHistogram(region.range(), region.histogram(), weight(d), ratio);
        if (!region.range().strictlyContains(key)) {
            return null;
        }
        RegionSplitter.Halves h = splitter.split(state.region(r), key);
        return WorkingState.degenerate(state.region(r), h, ratio, d) ? null : new Proposal(r, key, ratio);
    }

    /**
     * Cuts pieces off the candidate until they carry {@code needed} of the critical load (at
     * least one piece), each sized as {@link #propose} does; returns the load made movable.
     */
    double carve(Proposal first, Dimension d, double needed, BitSet unsplittable) {
        int source = state.nodeOf(first.region());
        double carved = 0;
        Proposal p = first;
        while (p != null) {
            String note = Notes.split(Notes.critical(state, source, d), bound, Candidate.of(state, p.region(), source, -1, d),
                    p.ratio());
            int[] halves = state.split(p.region(), p.key(), p.ratio(), d, note);
            if (halves == null) {
                unsplittable.set(p.region());
                return carved;
            }
            double piece = state.share(halves[0], d, source);
            double rest = state.share(halves[1], d, source);
            carved += piece;
            if (carved >= needed || rest <= config.splitBound()) {
                return carved + (rest <= config.splitBound() ? rest : 0);
            }
            p = propose(halves[1], source, d);
        }
        return carved;
    }

    private ToDoubleFunction<RegionCounters> weight(Dimension d) {
        return c -> costs.of(d, c);
    }
}
