package io.libra.core.ring;

import io.libra.core.plan.Balance;
import io.libra.core.plan.PlanStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Plans token moves on a single-token ring so Δ (eq. 4) falls in both dimensions at once, with
 * each range's replicas where Cassandra places them (SimpleStrategy, NetworkTopologyStrategy per
 * data centre and rack: {@link RingGrid}).
 * Two searches propose a target layout: the exact bottleneck search (when it applies) and
 * the greedy; each target is turned into the capped moves of one run and the run that ends
 * with the lower Δ wins (fewer bytes on a tie). Pure and deterministic.
 */
public final class RingPlanner {
    public static final String BOTTLENECK = "bottleneck-search";
    public static final String GREEDY = "greedy";
    private final RingPlannerConfig config;
    private final HalfReturns returns;

    public RingPlanner(RingPlannerConfig config) {
        this(config, HalfReturns.NONE);
    }

    /** @param returns the tokens the ring's nodes left lately, which a move goes at most halfway back toward */
    public RingPlanner(RingPlannerConfig config, HalfReturns returns) {
        this.config = config;
        this.returns = returns;
    }

    public RingPlan plan(RingLoad ring) {
        RingGrid grid = new RingGrid(ring, config.slicesPerSegment());
        Balance before = grid.balance(grid.initial);
        if (grid.n < 2) {
            return new RingPlan(GREEDY, List.of(), before, before, PlanStatus.BALANCED, "a single node: nothing to move");
        }
        if (before.imbalanceDegree() <= config.lambda()) {
            return new RingPlan(GREEDY, List.of(), before, before, PlanStatus.BALANCED, String.format(Locale.ROOT,
                    "Δ %.3f <= λ %.3f: balanced", before.imbalanceDegree(), config.lambda()));
        }
        RingMoves moves = new RingMoves(grid, config, returns);
        // each greedy step is one token move, so a run never needs more steps than it may take
        int steps = Math.min(4 * grid.n + 8, 2 * config.maxMoves() + 2);
        RingMoves.Sequence greedy = moves.toward(new GreedySearch(grid, steps).search(grid.initial));
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "greedy Δ %.3f", grid.imbalance(greedy.layout())));
        RingMoves.Sequence chosen = greedy;
        String method = GREEDY;
        if (BottleneckSearch.applies(grid)) {
            BottleneckSearch search = new BottleneckSearch(grid);
            Optional<int[]> optimum = search.search(grid.initial);
            List<int[]> targets = new ArrayList<>();
            optimum.ifPresent(targets::add);
            if (config.maxMoves() < grid.n) {
                for (int f = 0; f < grid.n; f++) {
                    search.searchKeeping(grid.initial, f).ifPresent(targets::add);
                }
            }
            RingMoves.Sequence exact = null;
            for (int[] target : targets) {
                RingMoves.Sequence run = moves.toward(target);
                if (exact == null || better(grid, run, exact)) {
                    exact = run;
                }
            }
            if (exact != null) {
                notes.add(String.format(Locale.ROOT, "bottleneck search Δ %.3f (optimum %.3f)",
                        grid.imbalance(exact.layout()), grid.imbalance(optimum.orElse(exact.layout()))));
                if (better(grid, exact, greedy)) {
                    chosen = exact;
                    method = BOTTLENECK;
                }
            }
        } else {
            notes.add("bottleneck search skipped: replicas beyond a node's own arc (and short of every node) couple neighbours");
        }
        Balance predicted = grid.balance(chosen.layout());
        PlanStatus status = chosen.moves().isEmpty() ? PlanStatus.STUCK : PlanStatus.PLANNED;
        return new RingPlan(method, chosen.moves(), before, predicted, status, String.join("; ", notes));
    }

    private static boolean better(RingGrid grid, RingMoves.Sequence a, RingMoves.Sequence b) {
        double da = grid.imbalance(a.layout());
        double db = grid.imbalance(b.layout());
        if (Math.abs(da - db) > 1e-9) {
            return da < db;
        }
        return bytes(a) < bytes(b);
    }

    private static double bytes(RingMoves.Sequence s) {
        return s.moves().stream().mapToDouble(TokenMove::movedBytes).sum();
    }

    /** Per-node loads of the ring as it is, for reports. */
    public static List<RingNodeLoad> loads(RingLoad ring) {
        RingGrid grid = new RingGrid(ring, 1);
        List<RingNodeLoad> out = new ArrayList<>();
        for (int j = 0; j < grid.n; j++) {
            out.add(new RingNodeLoad(grid.nodes.get(j).id(), grid.load(grid.initial, j, io.libra.core.model.Dimension.CPU),
                    grid.load(grid.initial, j, io.libra.core.model.Dimension.DISK),
                    grid.normalized(grid.initial, j, io.libra.core.model.Dimension.CPU),
                    grid.normalized(grid.initial, j, io.libra.core.model.Dimension.DISK)));
        }
        return out;
    }
}
