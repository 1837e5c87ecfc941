package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;
import java.util.List;

/**
 * The baselines' greedy step: balance one score, a weighted sum {@code wCpu·A' + wDisk·B'} of
 * the normalised loads, by moving the heaviest-scoring region that fits from the node with
 * the highest score to the one with the lowest. With weights (1, 0) or (0, 1) it is a
 * single-dimension balancer (1d-cpu, 1d-io, and each half of 2d-iso); with (w, 1 − w) it is
 * 2d-wtd. It never looks at the dimension it does not score.
 */
final class ScoreBalancer {
    private static final List<Constraint> PASSED = List.of(Constraint.LOAD_CONSTRAINT, Constraint.BENEFIT_THRESHOLD);

    private final WorkingState state;
    private final SchedulerConfig config;
    private final double wCpu;
    private final double wDisk;
    private final NodeHeap hot;
    private final NodeHeap cold;

    ScoreBalancer(WorkingState state, SchedulerConfig config, double wCpu, double wDisk) {
        this.state = state;
        this.config = config;
        this.wCpu = wCpu;
        this.wDisk = wDisk;
        int n = state.nodeCount();
        this.hot = new NodeHeap(n, this::score, true);
        this.cold = new NodeHeap(n, this::score, false);
        state.listen(hot::add);
        state.listen(cold::update);
    }

    double score(int j) {
        return wCpu * state.norm(j, Dimension.CPU) + wDisk * state.norm(j, Dimension.DISK);
    }

    private double regionScore(int r, int j) {
        return wCpu * state.regionNorm(r, Dimension.CPU, j) + wDisk * state.regionNorm(r, Dimension.DISK, j);
    }

    /** The dimension reasons name: the one with the larger weight. */
    private Dimension dimension() {
        return wCpu >= wDisk ? Dimension.CPU : Dimension.DISK;
    }

    /** One move from the hottest node that can shed load; false when no node can act. */
    boolean step() {
        while (!hot.isEmpty()) {
            int src = hot.peek();
            if (score(src) <= 1 + config.lambda()) {
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
        Dimension d = dimension();
        int[] regions = state.regionsByLoad(src, d);
        sortByScore(regions, src);
        int dst = cold.peek();
        if (dst == src) {
            return false;
        }
        for (int r : regions) {
            double x = regionScore(r, src);
            if (x <= config.benefitThreshold()) {
                return false;
            }
            if (score(dst) + regionScore(r, dst) < 1 + config.lambda()) {
                String note = "score " + Notes.num(score(src)) + " > 1+λ; " + state.region(r).id() + " score " + Notes.num(x);
                state.move(r, dst, d, PASSED, note);
                return true;
            }
        }
        return false;
    }

    private void sortByScore(int[] regions, int src) {
        if (wCpu == 0 || wDisk == 0) {
            return;
        }
        Integer[] boxed = java.util.Arrays.stream(regions).boxed().toArray(Integer[]::new);
        java.util.Arrays.sort(boxed, (a, b) -> {
            int c = Double.compare(regionScore(b, src), regionScore(a, src));
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int k = 0; k < regions.length; k++) {
            regions[k] = boxed[k];
        }
    }
}
