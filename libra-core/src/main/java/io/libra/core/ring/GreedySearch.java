package io.libra.core.ring;

/**
 * The greedy baseline, valid for any replication factor: repeatedly relocate the one token
 * (within its neighbours) whose new position lowers Δ most (ties broken by the spread of
 * deviations), until no single move helps.
 * Finds local optima only, where several boundaries must shift together it stops early.
 */
record GreedySearch(RingGrid grid, int maxIterations) {

    int[] search(int[] current) {
        int[] pos = current.clone();
        if (grid.n < 2) {
            return pos;
        }
        for (int iter = 0; iter < maxIterations; iter++) {
            double bestDelta = grid.imbalance(pos);
            double bestSpread = grid.spread(pos);
            int bestNode = -1;
            int bestPos = -1;
            for (int j = 0; j < grid.n; j++) {
                int keep = pos[j];
                int succ = pos[(j + 1) % grid.n];
                for (int p = (pos[(j - 1 + grid.n) % grid.n] + 1) % grid.m; p != succ; p = (p + 1) % grid.m) {
                    pos[j] = p;
                    if (grid.better(pos, bestDelta, bestSpread, 1e-12)) {
                        bestDelta = grid.imbalance(pos);
                        bestSpread = grid.spread(pos);
                        bestNode = j;
                        bestPos = p;
                    }
                }
                pos[j] = keep;
            }
            if (bestNode < 0) {
                break;
            }
            pos[bestNode] = bestPos;
        }
        return pos;
    }
}
