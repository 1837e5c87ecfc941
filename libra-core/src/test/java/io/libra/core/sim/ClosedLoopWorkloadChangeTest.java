package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import org.junit.jupiter.api.Test;

/**
 * The closed loop on cache-skew (guard off), where the first plan's forecast misses and the
 * planner is then held back, carrying that forecast from window to window. Then the hot spots
 * move to other keys. The carried forecast was made for the old workload, so it misses the new
 * one by a wide margin; the regions' own request counters show the workload moved, so that miss is
 * not held against the model and the planner acts on the new workload instead of staying held back.
 */
class ClosedLoopWorkloadChangeTest {
    private static final int ROUNDS_BEFORE = 3;
    private static final int ROUNDS_AFTER = 3;

    @Test
    void aNewWorkloadAfterAMissIsBalancedNotHeldBack() {
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        for (long seed = 1; seed <= 4; seed++) {
            ClosedLoop loop = new ClosedLoop(Scenario.byName("cache-skew"), seed, Planner.builder().build());
            for (int round = 0; round < ROUNDS_BEFORE; round++) {
                loop.round();
            }
            loop.workload(rotated(loop.workload(), 0.37));
            double before = loop.score().worst();
            double moved = 0;
            for (int round = 0; round < ROUNDS_AFTER; round++) {
                moved += loop.round();
            }
            double after = loop.score().worst();
            System.out.printf("cache-skew seed %d, hot spots moved: worst true Max/Mean %.3f -> %.3f, %.1f GB moved%n",
                    seed, before, after, moved / 1e9);
            soft.assertThat(after).as("seed %d: worst true Max/Mean on the new workload", seed).isLessThan(before - 0.1);
        }
        soft.assertAll();
    }

    /** The same requests and value sizes, the request density turned by {@code by} of the key space. */
    private static Workload rotated(Workload w, double by) {
        int n = w.cells();
        int k = (int) Math.round(by * n);
        double[] share = new double[n];
        for (int g = 0; g < n; g++) {
            share[(g + k) % n] = w.opsShare()[g];
        }
        return new Workload(share, w.valueBytes(), w.totalOps(), w.mix(), w.dataBytes(), w.hotFraction());
    }
}
