package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.Reason;
import io.libra.core.schedule.ActionCondition;
import io.libra.core.schedule.InterferenceConstraint;
import io.libra.core.schedule.LoadConstraint;
import io.libra.core.schedule.Notes;
import io.libra.core.schedule.SharedRelief;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a target layout into the moves of one run: best-first (the move that lowers Δ most
 * now), one token at a time without crossing a neighbour, each shortened to the byte cap (and a
 * return to halfway back toward a token the node left lately, {@link HalfReturns}),
 * at most {@code maxMoves}, stopping once Δ ≤ λ or no move passes the benefit threshold.
 */
final class RingMoves {
    private final RingGrid grid;
    private final RingPlannerConfig config;
    /**
     * The conditions a move's reason states when they hold, in that order: the ring's own benefit
     * threshold, then the region scheduler's load, interference and shared-relief conditions.
     */
    private final List<ActionCondition<? super TokenCandidate>> conditions;
    private final HalfReturns returns;

    RingMoves(RingGrid grid, RingPlannerConfig config, HalfReturns returns) {
        this.grid = grid;
        this.config = config;
        this.returns = returns;
        this.conditions = List.of(new ImbalanceGain(config.minImprovement()), new LoadConstraint(config.lambda()),
                new InterferenceConstraint(), new SharedRelief(config.lambda()));
    }

    /** Bytes moved going from one layout to another, each token the short way round. */
    static double cost(RingGrid grid, int[] from, int[] to) {
        double c = 0;
        for (int j = 0; j < grid.n; j++) {
            int cw = Math.floorMod(to[j] - from[j], grid.m);
            c += grid.movedBytes(j, from[j], to[j], cw <= grid.m - cw);
        }
        return c;
    }

    /** The layout reached and the moves taken. */
    record Sequence(int[] layout, List<TokenMove> moves) {
    }

    Sequence toward(int[] target) {
        int[] pos = grid.initial.clone();
        List<TokenMove> moves = new ArrayList<>();
        while (moves.size() < config.maxMoves() && grid.imbalance(pos) > config.lambda()) {
            double bestDelta = grid.imbalance(pos);
            double bestSpread = grid.spread(pos);
            double gain = config.minImprovement();
            int bestNode = -1;
            int bestPos = -1;
            for (int j = 0; j < grid.n; j++) {
                int p = step(pos, j, target[j]);
                if (p >= 0) {
                    int keep = pos[j];
                    pos[j] = p;
                    if (grid.better(pos, bestDelta, bestSpread, gain)) {
                        bestDelta = grid.imbalance(pos);
                        bestSpread = grid.spread(pos);
                        gain = 0;
                        bestNode = j;
                        bestPos = p;
                    }
                    pos[j] = keep;
                }
            }
            if (bestNode < 0) {
                break;
            }
            moves.add(move(pos, bestNode, bestPos));
            pos[bestNode] = bestPos;
        }
        return new Sequence(pos, moves);
    }

    /**
     * Where node j's token can go toward t now: inside its neighbours, within the byte cap, and at
     * most halfway back toward a token its node left in the last rounds ({@link HalfReturns}); -1 if nowhere.
     */
    int step(int[] pos, int j, int t) {
        int c = pos[j];
        if (c == t || grid.n < 2) {
            return -1;
        }
        int m = grid.m;
        int roomCw = Math.floorMod(pos[(j + 1) % grid.n] - c, m) - 1;
        int roomCcw = Math.floorMod(c - pos[(j - 1 + grid.n) % grid.n], m) - 1;
        int cw = Math.floorMod(t - c, m);
        int ccw = m - cw;
        boolean clockwise = cw <= roomCw || (ccw > roomCcw && cw <= ccw);
        int steps = clockwise ? Math.min(cw, roomCw) : Math.min(ccw, roomCcw);
        steps = returns.room(grid, j, c, clockwise, capped(j, c, steps, clockwise));
        if (steps <= 0) {
            return -1;
        }
        return Math.floorMod(c + (clockwise ? steps : -steps), m);
    }

    private int capped(int j, int c, int steps, boolean clockwise) {
        if (config.maxMoveBytes() <= 0) {
            return steps;
        }
        int lo = 0;
        int hi = steps;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            int p = Math.floorMod(c + (clockwise ? mid : -mid), grid.m);
            if (grid.movedBytes(j, c, p, clockwise) <= config.maxMoveBytes()) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The move with its reason: the critical load that triggers it, then each condition that holds
     * for it, stated by the condition itself with the numbers it compared.
     */
    private TokenMove move(int[] pos, int j, int p) {
        TokenCandidate c = new TokenCandidate(grid, pos, j, p);
        int c0 = pos[j];
        boolean clockwise = Math.floorMod(p - c0, grid.m) < Math.floorMod(pos[(j + 1) % grid.n] - c0, grid.m);
        double bytes = grid.movedBytes(j, c0, p, clockwise);
        int critical = c.criticalNode();
        Dimension dim = c.critical();
        StringBuilder note = new StringBuilder(String.format(java.util.Locale.ROOT,
                "%s %s %s is the critical load; %s's token %s -> %s moves %s, from %s most to %s most; Δ %s -> %s",
                c.id(critical), dim.label(), Notes.num(c.normalisedBefore(critical, dim)), c.id(j),
                Tokens.toKey(grid.end[c0]), Tokens.toKey(grid.end[p]), bytes(bytes), c.id(c.source()),
                c.id(c.destination()), Notes.num(c.deltaBefore()), Notes.num(c.deltaAfter())));
        List<Constraint> passed = new ArrayList<>();
        for (ActionCondition<? super TokenCandidate> condition : conditions) {
            if (condition.holds(c)) {
                passed.add(condition.constraint());
                note.append("; ").append(condition.explain(c));
            }
        }
        Reason reason = new Reason(dim, passed, c.deviation(c.source()), c.deviation(c.destination()), note.toString());
        return new TokenMove(c.id(j), grid.end[c0], grid.end[p], bytes, reason);
    }

    private static String bytes(double b) {
        if (b >= 1 << 30) {
            return String.format(java.util.Locale.ROOT, "%.1f GiB", b / (1 << 30));
        }
        if (b >= 1 << 20) {
            return String.format(java.util.Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        return String.format(java.util.Locale.ROOT, "%.0f B", b);
    }
}
