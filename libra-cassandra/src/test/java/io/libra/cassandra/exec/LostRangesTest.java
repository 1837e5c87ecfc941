package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LostRangesTest {
    private final Map<String, Long> ring = Map.of("a", -100L, "b", 0L, "c", 100L);

    @Test
    void rf1MovingBackwardsLosesRangeOnTheMover() {
        assertThat(LostRanges.nodes(ring, "b", -50, 1)).containsExactly("b");
    }

    @Test
    void rf1MovingForwardLosesRangeOnTheSuccessor() {
        assertThat(LostRanges.nodes(ring, "b", 50, 1)).containsExactly("c");
    }

    @Test
    void fullReplicationLosesNothing() {
        assertThat(LostRanges.nodes(ring, "b", 50, 3)).isEmpty();
    }

    @Test
    void rf2MovingForwardLosesOnTheNodeTwoAhead() {
        // b's arc grows to (−100, 50]: c no longer holds (0, 50] as primary, a no longer replicates it.
        assertThat(LostRanges.nodes(ring, "b", 50, 2)).containsExactly("a");
    }

    @Test
    void theNodesThatGainAreTheOnesThatReceiveStreams() {
        assertThat(LostRanges.gaining(ring, "b", 50, 1)).containsExactly("b");
        assertThat(LostRanges.gaining(ring, "b", -50, 1)).containsExactly("c");
        assertThat(LostRanges.gaining(ring, "b", 50, 3)).isEmpty();
    }
}
