package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestRatesTest {
    @Test
    void ratesAreGrowthOverTimeBetweenReports() {
        RequestRates r = new RequestRates();
        r.update("a", 100, 10, 1_000);
        assertThat(r.known("a")).isFalse();
        r.update("a", 400, 70, 4_000);
        assertThat(r.rate("a")).isEqualTo(new RequestRates.Rate(100, 20));
    }

    @Test
    void aCounterThatWentDownRestartedWhenTheRegionReopened() {
        RequestRates r = new RequestRates();
        r.update("a", 5_000, 5_000, 0);
        r.update("a", 30, 60, 3_000);
        assertThat(r.rate("a")).isEqualTo(new RequestRates.Rate(10, 20));
    }

    @Test
    void theSameReportSeenTwiceKeepsTheRate() {
        RequestRates r = new RequestRates();
        r.update("a", 0, 0, 0);
        r.update("a", 100, 0, 1_000);
        r.update("a", 100, 0, 1_000);
        assertThat(r.rate("a").readOps()).isEqualTo(100);
    }

    @Test
    void aRunOverOneTableOrGroupDoesNotForgetTheOthersRates() {
        SnapshotMetrics cluster = new SnapshotMetrics(Skewed.snapshot());
        RequestRates r = new RequestRates();
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
