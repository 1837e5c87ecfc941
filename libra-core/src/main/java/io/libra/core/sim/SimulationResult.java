package io.libra.core.sim;

import java.util.List;
import java.util.Optional;

/**
 * Everything a simulation produced: the scenario, the shared starting state and one run per
 * strategy (always including {@code none}, the reference for throughput and latency).
 *
 * @param offeredLoadScale the load factor at which P99 was taken: where {@code none}'s busiest resource is at 90%
 */
public record SimulationResult(String scenario, String description, long seed, int nodes, int regions, int rounds,
                               Score initial, List<StrategyRun> runs, double offeredLoadScale, double requestsPerSec) {
    public SimulationResult {
        runs = List.copyOf(runs);
    }

    public Optional<StrategyRun> run(String strategy) {
        return runs.stream().filter(r -> r.strategy().equals(strategy)).findFirst();
    }
}
