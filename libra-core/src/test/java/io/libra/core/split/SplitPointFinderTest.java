package io.libra.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.RegionCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitPointFinderTest {
    private static final KeyRange RANGE = new KeyRange("00", "ff");

    @Test
    void nonOverlappingRequestsGiveTheExactKey() {
        List<SampledRequest> requests = List.of(new SampledRequest("10", "10", 1), new SampledRequest("20", "20", 1),
                new SampledRequest("30", "30", 1), new SampledRequest("40", "40", 1));
        // τ = 0.5: the lower bound is the start of the first request past half the load, the upper bound the
        // end key reached from the top at half the load; they agree at "30"
        assertThat(SplitPointFinder.fromRequests(RANGE, requests, 0.5)).contains("30");
    }

    @Test
    void overlappingRequestsGiveAKeyBetweenTheBounds() {
        List<SampledRequest> requests = List.of(new SampledRequest("10", "50", 1), new SampledRequest("20", "60", 1),
                new SampledRequest("30", "70", 1), new SampledRequest("40", "80", 1));
        String key = SplitPointFinder.fromRequests(RANGE, requests, 0.5).orElseThrow();
        assertThat(key).isGreaterThanOrEqualTo("30").isLessThanOrEqualTo("60");
    }

    @Test
    void weightedRequestsMoveTheKeyTowardTheHeavyOnes() {
        List<SampledRequest> requests = List.of(new SampledRequest("10", "10", 8), new SampledRequest("80", "80", 1),
                new SampledRequest("90", "90", 1));
        assertThat(SplitPointFinder.fromRequests(RANGE, requests, 0.5).orElseThrow()).isLessThanOrEqualTo("80");
    }

    @Test
    void noLoadNoKey() {
        assertThat(SplitPointFinder.fromRequests(RANGE, List.of(), 0.5)).isEmpty();
    }

    @Test
    void histogramIsInvertedAtTheRequestedRatio() {
        RegionCounters one = new RegionCounters(1, 0, 0, 0);
        List<KeyBucket> h = List.of(new KeyBucket("40", one.scaled(3)), new KeyBucket("80", one), new KeyBucket("ff", one));
        // three fifths of the reads lie below "40": τ = 0.6 lands on "40"
        String key = SplitPointFinder.fromHistogram(RANGE, h, RegionCounters::readOps, 0.6);
        assertThat(key).startsWith("40");
        String quarter = SplitPointFinder.fromHistogram(RANGE, h, RegionCounters::readOps, 0.3);
        assertThat(quarter).isGreaterThan("00").isLessThan("40");
    }

    @Test
    void withoutAHistogramTheKeySpaceIsAssumedUniform() {
        assertThat(SplitPointFinder.fromHistogram(new KeyRange("", ""), List.of(), RegionCounters::ops, 0.5))
                .startsWith("80");
    }
}
