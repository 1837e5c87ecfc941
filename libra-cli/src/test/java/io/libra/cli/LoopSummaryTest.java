package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.sim.ClosedLoop;
import io.libra.core.sim.Score;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopSummaryTest {
    private static final double GIB = 1L << 30;

    /**
     * Of what later rounds moved, the summary tells the runs that were within 1.10 by window 3 (what
     * they move after is churn) from those still above it then (what they move is still converging).
     */
    @Test
    void laterDataIsSplitByWhetherTheRunWasWithinTheTargetByWindowThree() {
        LoopCommand.Outcome settled = outcome(1.08, 8, 1);
        LoopCommand.Outcome converging = outcome(1.15, 8, 3);

        String summary = LoopCommand.summary(List.of(settled, converging));

        assertThat(summary).contains("data moved from round 4 on: 4.0 GiB, 25.0% of the first plans' 16.0 GiB")
                .contains("  by the runs within 1.10 by window 3 (1): 1.0 GiB, 6.3%; by those still above it then (1): 3.0 GiB, 18.8%");
    }

    /** Four rounds: the first moves {@code first} GiB, the fourth {@code later}; window 3 leaves {@code third} in disk. */
    private static LoopCommand.Outcome outcome(double third, double first, double later) {
        List<Score> after = List.of(score(1.05), score(1.05), score(third), score(1.05));
        List<Double> moved = List.of(first * GIB, 0.0, 0.0, later * GIB);
        return new LoopCommand.Outcome("calm", 1, new ClosedLoop.Run(after, moved, 10, 0));
    }

    private static Score score(double disk) {
        return new Score(List.of(), List.of(), 1.02, disk);
    }
}
