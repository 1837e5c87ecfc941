package io.libra.core.sim;

import java.util.List;

/**
 * A strategy's whole run: per round, the settled end state (truth of a window with no migrations
 * after every plan was carried out) and totals. {@code throughputVsNone} and {@code p99Millis}
 * come from the {@link QueueingModel} applied to the end state.
 */
public record StrategyRun(String strategy, List<RoundStats> rounds, Score end, int moves, int splits, int merges,
                          int skipped, double movedBytes, double planMillis, double throughputVsNone, double p99Millis) {
    public StrategyRun {
        rounds = List.copyOf(rounds);
    }

    StrategyRun withQueueing(double throughput, double p99) {
        return new StrategyRun(strategy, rounds, end, moves, splits, merges, skipped, movedBytes, planMillis, throughput, p99);
    }

    /** Mean relative error of the node forecasts against the windows that followed; NaN when none was checked. */
    public double meanPredictionError() {
        return rounds.stream().mapToDouble(RoundStats::predictionError).filter(e -> !Double.isNaN(e)).average()
                .orElse(Double.NaN);
    }
}
