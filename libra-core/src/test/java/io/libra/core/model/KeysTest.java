package io.libra.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class KeysTest {
    @Test
    void interpolatesInsideTheRange() {
        KeyRange r = new KeyRange("10", "20");
        String mid = Keys.interpolate(r, 0.5);
        assertThat(r.strictlyContains(mid)).isTrue();
        assertThat(mid).startsWith("18");
    }

    @Test
    void unboundedEndsAreTheEdgesOfTheKeySpace() {
        assertThat(Keys.interpolate(KeyRange.all(), 0.25)).isEqualTo("40");
        assertThat(Keys.position(KeyRange.all(), "c0")).isCloseTo(0.75, within(1e-9));
    }

    @Test
    void aNarrowRangeGrowsTheKeyByABytes() {
        KeyRange r = new KeyRange("0000000000000001", "0000000000000002");
        String k = Keys.interpolate(r, 0.5);
        assertThat(r.strictlyContains(k)).isTrue();
        assertThat(k.length()).isGreaterThan(16);
    }

    @Test
    void hexCheck() {
        assertThat(Keys.isHex("00ff")).isTrue();
        assertThat(Keys.isHex("0F")).isFalse();
        assertThat(Keys.isHex("abc")).isFalse();
    }
}
