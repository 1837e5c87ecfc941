package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A split HBase refused is not planned again until {@link SplitRefusals#RETRY_AFTER} has passed. */
class SplitRefusalsTest {
    private static final Instant T0 = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void aRefusedSplitWaitsItsTimeThenMayBePlannedAgain() {
        SplitRefusals r = new SplitRefusals();
        assertThat(r.refusal("d1", T0)).isEmpty();
        r.refused("d1", "d1 NOT splittable", T0);
        assertThat(r.refusal("d1", T0.plusSeconds(60))).hasValue(
                "HBase refused its split 60 s ago (d1 NOT splittable), tried again 300 s after that");
        assertThat(r.refusal("d2", T0.plusSeconds(60))).as("another region").isEmpty();
        assertThat(r.refusal("d1", T0.plus(SplitRefusals.RETRY_AFTER))).isEmpty();
    }
}
