package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WorkMeterTest {
    private static long burn() {
        long x = 0;
        for (int i = 0; i < 2_000_000; i++) {
            x += Long.numberOfTrailingZeros(i * 31L + x);
        }
        return x;
    }

    private static long cpuNow() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    @Test
    void oneRequestInEveryIsMeasuredAndCountsForAllOfThem() {
        assumeTrue(ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported());
        WorkMeter meter = new WorkMeter(4);
        RegionTraffic sampled = new RegionTraffic();
        RegionTraffic skipped = new RegionTraffic();
        long sink = 0;
        long sampledCpu = 0;
        for (int i = 0; i < 8; i++) {
            RegionTraffic region = i % 4 == 0 ? sampled : skipped; // the 1st and the 5th request are sampled
            long start = cpuNow();
            meter.beginRequest();
            sink += burn();
            meter.endRequest(region);
            if (region == sampled) {
                sampledCpu += cpuNow() - start;
            }
        }
        assertThat(sink).isNotZero();
        assertThat(skipped.measuredCpuNanos.sum()).as("requests between samples add nothing").isZero();
        // each sample stands for 4 requests: 4x its own thread CPU, which the test's bracket contains
        assertThat(sampled.measuredCpuNanos.sum()).isLessThanOrEqualTo(4 * sampledCpu)
                .isGreaterThanOrEqualTo(4 * sampledCpu / 2);
    }

    @Test
    void flushesAndCompactionsAreAlwaysMeasured() {
        WorkMeter meter = new WorkMeter(1000);
        RegionTraffic region = new RegionTraffic();
        meter.beginBackground();
        long sink = burn();
        meter.endBackground(region);
        assertThat(sink).isNotZero();
        assertThat(region.measuredCpuNanos.sum()).isPositive();
    }

    @Test
    void readsReadAndWriteBytesOfAProcIoFile() {
        String io = "rchar: 5\nwchar: 6\nsyscr: 1\nsyscw: 1\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n";
        assertThat(WorkMeter.parse(io.getBytes(StandardCharsets.US_ASCII))).isEqualTo(12288);
    }

    @Test
    void sampledWorkBecomesMeasuredRatesWhenTheRegionHadEnoughRequests() {
        AtomicLong nanos = new AtomicLong();
        CpuClock none = new CpuClock() {
            @Override
            public long cpuNanos() {
                return -1;
            }

            @Override
            public String name() {
                return "none";
            }
        };
        LoadSampler sampler = new LoadSampler("rs,1,1", 4, none, null, nanos::get, () -> 1L);
        ServerTraffic traffic = ServerTraffic.of("work-meter-test");
        sampler.sample(traffic);
        RegionTraffic busy = traffic.region("busy");
        busy.read(10_000, 0);
        busy.measuredCpuNanos.add(2_000_000_000L);
        busy.measuredIoBytes.add(4_000);
        RegionTraffic quiet = traffic.region("quiet");
        quiet.read(3, 0);
        quiet.measuredCpuNanos.add(64_000_000L);
        nanos.set(2_000_000_000L);
        Map<String, double[]> rates = sampler.sample(traffic).orElseThrow().regionRates();
        assertThat(rates.get("busy")[LoadReportMBean.MEASURED_CPU]).isEqualTo(1.0); // 2 s of CPU over 2 s
        assertThat(rates.get("busy")[LoadReportMBean.MEASURED_DISK]).isEqualTo(2000.0);
        assertThat(rates.get("quiet")[LoadReportMBean.MEASURED_CPU]).as("3 requests: too few samples").isNaN();
    }
}
