package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A run keeps the shortest prefix within the benefit threshold of the lowest Δ it reached. */
class WorthKeepingTest {
    /** The prefixes that lowered Δ in ycsb-f seed 23's sixth window under node-speed: {length, Δ}. */
    private static final List<double[]> LOWERED = List.of(new double[] {4, 0.0743}, new double[] {21, 0.0646},
            new double[] {294, 0.0636}, new double[] {317, 0.0628});

    @Test
    void actionsThatGainLessThanTheBenefitThresholdAreNotKept() {
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0754, 0.0628, 1.0 / 500)).isEqualTo(21);
    }

    @Test
    void withoutAThresholdTheRunKeepsThePrefixThatReachedTheLowestDelta() {
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0754, 0.0628, 0)).isEqualTo(317);
    }

    @Test
    void aRunThatGainsNoMoreThanTheThresholdInAllKeepsNothing() {
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0640, 0.0628, 1.0 / 500)).isZero();
    }

    @Test
    void aRunThatLoweredNothingKeepsNothing() {
        assertThat(CooperativeRun.worthKeeping(List.of(), 0.2, 0.2, 1.0 / 500)).isZero();
    }
}
