package io.libra.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyRangeTest {
    @Test
    void rangesOverlapWhenTheyShareAKeyAndAnEmptyKeyIsUnbounded() {
        KeyRange middle = new KeyRange("10", "20");
        assertThat(middle.overlaps(new KeyRange("15", "30"))).isTrue();
        assertThat(middle.overlaps(new KeyRange("12", "13"))).as("inside").isTrue();
        assertThat(middle.overlaps(new KeyRange("20", "30"))).as("adjacent, end exclusive").isFalse();
        assertThat(middle.overlaps(new KeyRange("", "10"))).as("adjacent before").isFalse();
        assertThat(middle.overlaps(new KeyRange("", "11"))).isTrue();
        assertThat(middle.overlaps(KeyRange.all())).isTrue();
        assertThat(new KeyRange("30", "").overlaps(middle)).isFalse();
        assertThat(new KeyRange("19", "").overlaps(middle)).isTrue();
    }
}
