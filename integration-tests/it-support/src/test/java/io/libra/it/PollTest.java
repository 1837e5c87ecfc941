package io.libra.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollTest {
    @Test
    void returnsOnceTheConditionHoldsAndTriesAgainAfterAThrow() {
        AtomicInteger calls = new AtomicInteger();
        Poll.until(Duration.ofSeconds(60), "third call", () -> {
            int n = calls.incrementAndGet();
            if (n == 1) {
                throw new IllegalStateException("not up yet");
            }
            return n == 3;
        });
        assertThat(calls).hasValue(3);
    }

    @Test
    void aTimeoutNamesTheWaitAndKeepsTheLastException() {
        IllegalStateException cause = new IllegalStateException("connection refused");
        assertThatThrownBy(() -> Poll.until(Duration.ZERO, "the server", () -> {
            throw cause;
        }))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("waiting for the server")
                .hasCause(cause);
    }

    @Test
    void aConditionIsAskedAtLeastOnceEvenWithNoTimeLeft() {
        AtomicInteger calls = new AtomicInteger();
        Poll.until(Duration.ZERO, "one call", () -> calls.incrementAndGet() == 1);
        assertThat(calls).hasValue(1);
    }
}
