package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * In the closed loop, moves measured to leave Δ worse are taken back (Revert) and not tried again
 * (PredictionCheck#repeats), so no run ends worse than its first plan left it. On cache-skew, where
 * a region's disk cost depends on what shares its node's block cache, a later plan's moves left
 * seeds 2, 5, 6, 9 and 12 of 1-12 0.05-0.15 worse for good before take-back existed. Since the
 * learnt block cache (CacheModel) forecasts such moves, and the check replays plans with splits
 * too (Hindcast), no plan in these 24 runs has to take moves back; what taking back does is tested
 * on plans built for it (RevertTest; the HBase balancer's PlanHistoryTest).
 */
class TakenBackTest {
    @Test
    void noRunEndsWorseThanItsFirstPlanLeftIt() {
        List<String> worse = new ArrayList<>();
        for (String scenario : List.of("cache-skew", "background")) {
            for (long seed = 1; seed <= 12; seed++) {
                ClosedLoop loop = new ClosedLoop(Scenario.byName(scenario), seed, Planner.builder().build());
                double first = 0;
                for (int round = 0; round < 8; round++) {
                    loop.round();
                    Score s = loop.score();
                    double worst = Math.max(s.cpuMaxOverMean(), s.diskMaxOverMean());
                    first = round == 0 ? worst : first;
                    if (round == 7 && worst > first + 0.03) {
                        worse.add(String.format("%s seed %d: %.3f after the first plan, %.3f at the end", scenario, seed,
                                first, worst));
                    }
                }
            }
        }
        assertThat(worse).isEmpty();
    }
}
