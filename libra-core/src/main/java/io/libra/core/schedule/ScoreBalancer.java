package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import java.util.Arrays;
import java.util.List;

/**
 * The baselines' greedy step: balance one {@link Score} by moving the heaviest-scoring region
 * that passes the load constraint and the benefit threshold (on the score) from the node with
 * the highest score to the one with the lowest. With a one-dimension score it is 1d-cpu, 1d-io
 * and each half of 2d-iso; with a weighted score it is 2d-wtd. It never looks at what it does
 * not score.
 */
final class ScoreBalancer {
    /** Coldest nodes asked before a region stays put because the placement rule refuses them all. */
    private static final int DESTINATIONS_TRIED = 8;
    private final WorkingState state;
    private final SchedulerConfig config;
    private final Score score;
    private final NodeHeap hot;
    private final NodeHeap cold;
    private final LoadConstraint load;
    private final BenefitThreshold benefit;
    private final List<MigrationCondition> passed;

    ScoreBalancer(WorkingState state, SchedulerConfig config, Score score) {
        this.state = state;
        this.config = config;
        this.score = score;
        int n = state.nodeCount();
        this.hot = new NodeHeap(n, j -> score.node(state, j), true);
        this.cold = new NodeHeap(n, j -> score.node(state, j), false);
        this.load = new LoadConstraint(config.lambda());
        this.benefit = new BenefitThreshold(config.benefitThreshold());
        this.passed = List.of(load, benefit);
        state.listen(hot::add);
        state.listen(cold::update);
    }

    double maxScore() {
        double max = 0;
        for (int j = 0; j < state.nodeCount(); j++) {
            max = Math.max(max, score.node(state, j));
        }
        return max;
    }

    /** One move from the hottest node that can shed load; false when no node can act. */
    boolean step() {
        while (!hot.isEmpty()) {
            int src = hot.peek();
            if (score.node(state, src) <= 1 + config.lambda()) {
                return false;
            }
            if (shed(src)) {
                return true;
            }
            hot.remove(src);
        }
        return false;
    }

    private boolean shed(int src) {
        Dimension d = score.dimension();
        for (int r : byScore(state.regionsByLoad(src, d), src)) {
            int dst = destination(r, src);
            if (dst < 0) {
                continue;
            }
            Candidate c = new Candidate(state, r, src, dst, d, score);
            if (!benefit.holds(c)) {
                return false;
            }
            if (load.holds(c)) {
                state.move(c, passed, state.nodeId(src) + " " + score.label() + " "
                        + Notes.compared(score.node(state, src), " > 1+λ=", 1 + config.lambda()));
                return true;
            }
        }
        return false;
    }

    /** Heaviest score first; a one-dimension score is already in that order. */
    private int[] byScore(int[] regions, int src) {
        if (score.cpu() == 0 || score.disk() == 0) {
            return regions;
        }
        Integer[] boxed = Arrays.stream(regions).boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, (a, b) -> {
            int c = Double.compare(score.region(state, b, src), score.region(state, a, src));
            return c != 0 ? c : Integer.compare(a, b);
        });
        return Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
    }

    /** The lowest-scoring node the placement rule lets region r go to (the coldest, unless refused); -1 if none. */
    private int destination(int r, int src) {
        for (int dst : cold.top(DESTINATIONS_TRIED)) {
            if (dst != src && state.allowed(r, dst)) {
                return dst;
            }
        }
        return -1;
    }
}
