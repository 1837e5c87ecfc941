package io.libra.core.ring;

import io.libra.core.model.Dimension;
import java.util.Optional;

/**
 * The exact bottleneck partition of the ring into contiguous arcs, one per node in ring
 * order, minimising max_j max(A'_j, B'_j) (so Δ of eq. 4) over slice boundaries. A binary
 * search on the bottleneck value X; X is feasible when, for some rotation (where the last
 * node's token sits), a greedy walk that gives each node the longest arc within both of
 * its limits covers the ring. Longest-first is optimal for a fixed rotation because loads
 * only grow with arc length. Exact only when a node's load depends on its own arc alone:
 * in every replica group each node holds its own primary arc only, or every range.
 */
final class BottleneckSearch {
    private static final int ITERATIONS = 50;
    private final RingGrid grid;
    private final double[] arcCpu;
    private final double[] arcDisk;
    private final double[] fixedCpu;
    private final double[] fixedDisk;

    BottleneckSearch(RingGrid grid) {
        this.grid = grid;
        this.arcCpu = combined(grid, Dimension.CPU);
        this.arcDisk = combined(grid, Dimension.DISK);
        this.fixedCpu = fixed(grid, Dimension.CPU);
        this.fixedDisk = fixed(grid, Dimension.DISK);
    }

    static boolean applies(RingGrid grid) {
        return grid.n >= 2 && grid.uncoupled();
    }

    private static double[] combined(RingGrid grid, Dimension dim) {
        double[] p = new double[2 * grid.m + 1];
        for (int g = 0; g < grid.groupCount(); g++) {
            if (grid.own(g)) {
                double[] q = grid.prefix(g, dim);
                for (int i = 0; i < p.length; i++) {
                    p[i] += q[i];
                }
            }
        }
        return p;
    }

    private static double[] fixed(RingGrid grid, Dimension dim) {
        double[] f = new double[grid.n];
        for (int j = 0; j < grid.n; j++) {
            RingNode node = grid.nodes.get(j);
            f[j] = dim == Dimension.CPU ? node.baseCpu() : node.baseDisk();
            for (int g = 0; g < grid.groupCount(); g++) {
                if (grid.everywhere(g)) {
                    f[j] += grid.groupTotal(g, dim);
                }
            }
        }
        return f;
    }

    /** The optimal layout closest (fewest bytes moved) to {@code current}, if any differs. */
    Optional<int[]> search(int[] current) {
        double x = bisect(current, x0 -> anyFeasible(x0));
        return closest(x * (1 + 1e-9), current);
    }

    /**
     * The optimal layout in which node {@code fixed} keeps its token: what a run capped at
     * N−1 moves can reach in full, where the global optimum may need every token to move.
     */
    Optional<int[]> searchKeeping(int[] current, int fixed) {
        double x = bisect(current, x0 -> walk(x0, current[fixed], fixed) != null);
        return Optional.ofNullable(walk(x * (1 + 1e-9), current[fixed], fixed));
    }

    private double bisect(int[] current, java.util.function.DoublePredicate feasible) {
        double hi = (1 + grid.imbalance(current)) * (1 + 1e-12) + 1e-12;
        double lo = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            double mid = (lo + hi) / 2;
            if (feasible.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private boolean anyFeasible(double x) {
        for (int s = 0; s < grid.m; s++) {
            if (walk(x, s) != null) {
                return true;
            }
        }
        return false;
    }

    private Optional<int[]> closest(double x, int[] current) {
        int[] best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (int s = 0; s < grid.m; s++) {
            int[] pos = walk(x, s);
            if (pos != null) {
                double cost = RingMoves.cost(grid, current, pos);
                if (cost < bestCost) {
                    bestCost = cost;
                    best = pos;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    int[] walk(double x, int s) {
        return walk(x, s, grid.n - 1);
    }

    /** Greedy longest arcs with node {@code last}'s token at slice s; null when X is infeasible there. */
    int[] walk(double x, int s, int last) {
        int n = grid.n;
        int m = grid.m;
        int[] pos = new int[n];
        int prev = s;
        for (int k = 0; k < n - 1; k++) {
            int j = (last + 1 + k) % n;
            int lo = prev + 1;
            int hiQ = s + m - (n - 1 - k);
            if (lo > hiQ || !fits(x, j, prev, lo)) {
                return null;
            }
            while (lo < hiQ) {
                int mid = (lo + hiQ + 1) >>> 1;
                if (fits(x, j, prev, mid)) {
                    lo = mid;
                } else {
                    hiQ = mid - 1;
                }
            }
            pos[j] = lo % m;
            prev = lo;
        }
        if (!fits(x, last, prev, s + m)) {
            return null;
        }
        pos[last] = s;
        return pos;
    }

    /** Does node j stay within X in both dimensions owning slices (a, b] (unwrapped indices)? */
    private boolean fits(double x, int j, int a, int b) {
        return within(x, grid.targetCpu[j], fixedCpu[j] + arcCpu[b + 1] - arcCpu[a + 1])
                && within(x, grid.targetDisk[j], fixedDisk[j] + arcDisk[b + 1] - arcDisk[a + 1]);
    }

    private static boolean within(double x, double target, double load) {
        return target <= 0 || load <= x * target;
    }
}
