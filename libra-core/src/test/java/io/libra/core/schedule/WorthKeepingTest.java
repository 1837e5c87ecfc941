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
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0754, 0.0628, 1.0 / 500, 0.05)).isEqualTo(21);
    }

    @Test
    void withoutAThresholdTheRunKeepsThePrefixThatReachedTheLowestDelta() {
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0754, 0.0628, 0, 0.05)).isEqualTo(317);
    }

    @Test
    void aRunThatGainsNoMoreThanTheThresholdInAllKeepsNothing() {
        assertThat(CooperativeRun.worthKeeping(LOWERED, 0.0640, 0.0628, 1.0 / 500, 0.05)).isZero();
    }

    /** Theorem 1: a run that reached λ keeps the shortest prefix within λ, however little it gained past it. */
    @Test
    void aRunThatReachedLambdaKeepsThePrefixThatReachedIt() {
        List<double[]> lowered = List.of(new double[] {3, 0.0512}, new double[] {9, 0.0503}, new double[] {12, 0.0499});
        assertThat(CooperativeRun.worthKeeping(lowered, 0.0515, 0.0499, 1.0 / 500, 0.05)).isEqualTo(12);
        assertThat(CooperativeRun.worthKeeping(lowered, 0.0515, 0.0499, 1.0 / 500, 0.04)).isZero();
    }

    @Test
    void aRunThatLoweredNothingKeepsNothing() {
        assertThat(CooperativeRun.worthKeeping(List.of(), 0.2, 0.2, 1.0 / 500, 0.05)).isZero();
    }
}
