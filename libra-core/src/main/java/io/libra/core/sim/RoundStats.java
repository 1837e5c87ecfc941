package io.libra.core.sim;

/**
 * One window of one strategy's run: the true balance of the window (migration traffic included),
 * what was carried out in it, and the plan made at its end.
 *
 * @param status     the plan's status ("planned", "balanced", "stuck", "suspended"), or "settle"
 * @param planMillis time the planner took
 * @param predictionError how far the previous plan's node forecast was from this window (NaN when none)
 */
public record RoundStats(int round, double cpuMaxOverMean, double diskMaxOverMean, int moves, int splits, int merges,
                         int skipped, double movedBytes, int planned, String status, double planMillis,
                         double predictionError) {
}
