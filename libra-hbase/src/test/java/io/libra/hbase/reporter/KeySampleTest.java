package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.model.KeyBucket;
import io.libra.core.model.KeyRange;
import io.libra.core.model.RegionCounters;
import io.libra.core.split.SplitPointFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeySampleTest {
    /** The table's last region [f0, ∞) whose writes all go to keys f0 00 .. f0 ff (time-ordered keys, say). */
    @Test
    void theSplitKeyFallsWhereTheLoadDividesNotAtTheKeySpaceMiddle() {
        KeySample sample = new KeySample();
        for (int i = 0; i < 256 * KeySample.EVERY; i++) {
            sample.offer(new byte[] {(byte) 0xf0, (byte) (i / KeySample.EVERY), 1}, true, 1, 100);
        }
        List<KeySample.Sample> samples = sample.drain();
        assertThat(samples).hasSize(KeySample.CAPACITY); // about 256 sampled (at random), reservoir keeps 128
        List<KeyBucket> h = KeySample.histogram(samples, new byte[0], new double[] {0, 1000, 0, 100_000});
        assertThat(h).hasSizeLessThanOrEqualTo(KeySample.BUCKETS);
        assertThat(h.get(h.size() - 1).endKey()).isEmpty(); // closes at the region's end
        assertThat(h.stream().mapToDouble(b -> b.counters().writeOps()).sum()).isCloseTo(1000, within(1e-6));

        KeyRange range = new KeyRange("f0", "");
        String loadMidpoint = SplitPointFinder.fromHistogram(range, h, RegionCounters::writeOps, 0.5);
        String keyMidpoint = SplitPointFinder.fromHistogram(range, List.of(), RegionCounters::writeOps, 0.5);
        assertThat(loadMidpoint).startsWith("f0").isGreaterThan("f040").isLessThan("f0c0");
        assertThat(keyMidpoint).doesNotStartWith("f0"); // where no row is: one daughter would be empty
        assertThat(sample.drain()).as("the next window starts empty").isEmpty();
    }

    @Test
    void histogramsTravelAsOneJmxAttributeAndBack() {
        List<KeyBucket> h = List.of(new KeyBucket("10", new RegionCounters(1, 2, 3, 4)),
                new KeyBucket("", new RegionCounters(5, 6, 7, 8)));
        assertThat(LoadReportMBean.decode(LoadReportMBean.encode(h))).isEqualTo(h);
        assertThat(LoadReportMBean.decode("garbage,x")).isEmpty();
    }
}
