package io.libra.core.ring;

import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokens each node left in the last {@value #ROUNDS} planning rounds, which a new plan's moves
 * go at most halfway back toward. Where the estimate misplaces an arc's load (a node's block cache
 * that the arc's reads crowd, values no counter sizes), a ring hands the arc back and forth between
 * the same nodes, each move forecast to fix what the last one did not, and the true Δ never falls.
 * Halving every return closes in on the boundary the measured totals point to, as a bisection
 * does. Only recent rounds count, so a workload that has moved on frees the tokens again. A
 * take-back of moves the next window showed worse still goes back in full ({@link RingTakeBack}):
 * it returns to a measured layout.
 *
 * @param left  by node id, the tokens it moved away from, with the round in which it did
 * @param round the planning round now
 */
public record HalfReturns(Map<String, List<Left>> left, int round) {
    /** How many rounds after a node left a token its moves go at most halfway back toward it. */
    static final int ROUNDS = 3;
    public static final HalfReturns NONE = new HalfReturns(Map.of(), 0);

    /** A token a node moved away from, in planning round {@code round}. */
    public record Left(long token, int round) {
    }

    public HalfReturns {
        Map<String, List<Left>> copy = new LinkedHashMap<>();
        left.forEach((node, tokens) -> copy.put(node, List.copyOf(tokens)));
        left = Map.copyOf(copy);
    }

    /** The next planning round: tokens left more than {@value #ROUNDS} rounds before it are forgotten. */
    public HalfReturns next() {
        int now = round + 1;
        Map<String, List<Left>> out = new LinkedHashMap<>();
        left.forEach((node, tokens) -> out.put(node, tokens.stream().filter(l -> now - l.round() <= ROUNDS).toList()));
        out.values().removeIf(List::isEmpty);
        return new HalfReturns(out, now);
    }

    /** These with a plan of this round carried out: every token a node moved away from in it. */
    public HalfReturns after(Plan carriedOut) {
        if (carriedOut == null || carriedOut.actions().stream().noneMatch(MoveTokenAction.class::isInstance)) {
            return this;
        }
        Map<String, List<Left>> out = new LinkedHashMap<>();
        left.forEach((node, tokens) -> out.put(node, new ArrayList<>(tokens)));
        for (Action a : carriedOut.actions()) {
            if (a instanceof MoveTokenAction m) {
                out.computeIfAbsent(m.node(), k -> new ArrayList<>()).add(new Left(Tokens.fromKey(m.fromToken()), round));
            }
        }
        return new HalfReturns(out, round);
    }

    /**
     * How many of {@code steps} slices node {@code j} may go from slice {@code c}: as far as halfway
     * from where the plan started it to the nearest token it left that way, however many of this
     * plan's moves it takes to get there; all of them when it left none that way.
     */
    int room(RingGrid grid, int j, int c, boolean clockwise, int steps) {
        List<Left> tokens = left.get(grid.nodes.get(j).id());
        if (tokens == null) {
            return steps;
        }
        long origin = grid.end[grid.initial[j]];
        double half = tokens.stream().filter(l -> l.token() != origin)
                .mapToDouble(l -> Tokens.width(span(origin, l.token(), clockwise))).min().orElse(Double.MAX_VALUE) / 2;
        int s = 0;
        while (s < steps && within(Tokens.width(span(origin, grid.end[Math.floorMod(c + (clockwise ? s + 1 : -s - 1),
                grid.m)], clockwise)), half)) {
            s++;
        }
        return s;
    }

    /** The span from {@code a} to {@code b} going clockwise, or the other way round. */
    private static long span(long a, long b, boolean clockwise) {
        return clockwise ? Tokens.clockwise(a, b) : Tokens.clockwise(b, a);
    }

    /**
     * Within half the way to the nearest token left; a position the other side of where the plan
     * started (over half the ring that way) has not gone that way at all.
     */
    private static boolean within(double away, double half) {
        return away <= half || away > 0x1p63;
    }
}
