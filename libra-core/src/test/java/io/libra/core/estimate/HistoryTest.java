package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which earlier windows belong with the current one. */
class HistoryTest {
    @Test
    void aWindowBelongsWhileItSharesAtLeastHalfTheNodes() {
        Set<String> now = Set.of("n1", "n2", "n3", "n4");
        assertThat(History.sharesEnough(now, Set.of("n1", "n2", "n3"))).as("a node joined since").isTrue();
        assertThat(History.sharesEnough(now, Set.of("n1", "n2", "n5"))).as("one replaced, one joined").isTrue();
        assertThat(History.sharesEnough(now, Set.of("n1", "m2", "m3", "m4"))).as("another cluster").isFalse();
        assertThat(History.sharesEnough(Set.of("n1", "n2", "n3"), Set.of("n1", "n2", "n3", "n4"))).as("a node left")
                .isTrue();
    }

}
