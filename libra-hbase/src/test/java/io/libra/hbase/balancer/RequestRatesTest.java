package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestRatesTest {
    private final RequestRates r = new RequestRates();

    /** Region a's counters as one report gives them. */
    private void report(long reads, long writes, long atMillis) {
        r.update("a", reads, writes, atMillis);
    }

    @Test
    void ratesAreGrowthOverTimeBetweenReports() {
        report(100, 10, 1_000);
        assertThat(r.known("a")).isFalse();
        report(400, 70, 4_000);
        assertThat(r.rate("a")).isEqualTo(new RequestRates.Rate(100, 20));
    }

    @Test
    void aCounterThatWentDownRestartedWhenTheRegionReopened() {
        report(5_000, 5_000, 0);
        report(30, 60, 3_000);
        assertThat(r.rate("a")).isEqualTo(new RequestRates.Rate(10, 20));
    }

    @Test
    void theSameReportSeenTwiceKeepsTheRate() {
        report(0, 0, 0);
        report(100, 0, 1_000);
        report(100, 0, 1_000);
        assertThat(r.rate("a").readOps()).isEqualTo(100);
    }

    @Test
    void aRunOverOneTableOrGroupDoesNotForgetTheOthersRates() {
        SnapshotMetrics cluster = new SnapshotMetrics(Skewed.snapshot());
        r.update(cluster.first);
        r.update(cluster.second);
        r.retainLive(cluster.second);
        String any = cluster.regionOfId.get("r-0").getEncodedName();
        assertThat(r.known(any)).isTrue();
        r.update("gone", 0, 0, 0);
        r.retainLive(cluster.second);
        assertThat(r.known("gone")).isFalse();
        assertThat(r.known(any)).isTrue();
    }
}
