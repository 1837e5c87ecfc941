package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadSamplerTest {
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong cpuNanos = new AtomicLong();

    private CpuClock cpu() {
        return new CpuClock() {
            @Override
            public long cpuNanos() {
                return cpuNanos.get();
            }

            @Override
            public String name() {
                return "process";
            }
        };
    }

    @Test
    void turnsCountersIntoRatesOverTheWindow(@TempDir Path dir) throws Exception {
        Path io = dir.resolve("io");
        Files.write(io, List.of("rchar: 1", "read_bytes: 1000", "write_bytes: 2000", "cancelled_write_bytes: 0"));
        LoadSampler sampler = new LoadSampler("rs,1,1", 4, cpu(), new DiskCounter(io), nanos::get, () -> 42L);
        ServerTraffic traffic = ServerTraffic.of("sampler-test-1");
        assertThat(sampler.sample(traffic)).isEmpty();

        traffic.region("r1").read(100, 10_000);
        traffic.region("r1").write(50, 5_000);
        cpuNanos.set(3_000_000_000L);
        nanos.set(2_000_000_000L);
        Files.write(io, List.of("read_bytes: 5000", "write_bytes: 12000"));
        LoadReport r = sampler.sample(traffic).orElseThrow();

        assertThat(r.windowSeconds()).isEqualTo(2.0);
        assertThat(r.cpuUsage()).isCloseTo(1.5, within(1e-9));
        assertThat(r.cpuSource()).isEqualTo("process");
        assertThat(r.diskReadBytesPerSec()).isEqualTo(2000.0);
        assertThat(r.diskWriteBytesPerSec()).isEqualTo(5000.0);
        assertThat(r.diskSource()).isEqualTo("proc-self-io");
        double[] r1 = r.regionRates().get("r1");
        assertThat(r1).hasSize(LoadReportMBean.REGION_FIELDS.size()).startsWith(50.0, 25.0, 5000.0, 2500.0);
        assertThat(r1[LoadReportMBean.MEASURED_CPU]).as("150 requests are too few for a sampled figure").isNaN();
        assertThat(r1[LoadReportMBean.MEASURED_DISK]).isNaN();
        assertThat(r.updatedAtMillis()).isEqualTo(42L);
    }

    @Test
    void fallsBackToUserBytesWhenProcSelfIoIsUnreadable(@TempDir Path dir) {
        LoadSampler sampler = new LoadSampler("rs,1,1", 4, cpu(), new DiskCounter(dir.resolve("missing")),
                nanos::get, () -> 1L);
        ServerTraffic traffic = ServerTraffic.of("sampler-test-2");
        sampler.sample(traffic);
        traffic.region("big").write(10, 1_000_000);
        nanos.set(1_000_000_000L);
        LoadReport r = sampler.sample(traffic).orElseThrow();
        assertThat(r.diskSource()).isEqualTo("user-bytes");
        assertThat(r.diskWriteBytesPerSec()).isEqualTo(1_000_000.0);
    }

    @Test
    void aRegionThatReopenedRestartsItsCounter() {
        LoadSampler sampler = new LoadSampler("rs,1,1", 4, cpu(), null, nanos::get, () -> 1L);
        ServerTraffic traffic = ServerTraffic.of("sampler-test-3");
        traffic.region("r").read(500, 0);
        sampler.sample(traffic);
        traffic.closed("r");
        traffic.region("r").read(30, 0);
        nanos.set(1_000_000_000L);
        assertThat(sampler.sample(traffic).orElseThrow().regionRates().get("r")[0]).isEqualTo(30.0);
    }

    @Test
    void cpuThatCannotBeReadIsReportedAsNone() {
        cpuNanos.set(-1);
        LoadSampler sampler = new LoadSampler("rs,1,1", 4, cpu(), null, nanos::get, () -> 1L);
        ServerTraffic traffic = ServerTraffic.of("sampler-test-4");
        sampler.sample(traffic);
        nanos.set(1_000_000_000L);
        assertThat(sampler.sample(traffic).orElseThrow().cpuSource()).isEqualTo("none");
    }

    @Test
    void parsesProcSelfIoAndRejectsGarbage() {
        assertThat(DiskCounter.parse(List.of("read_bytes: 7", "write_bytes: 9"))).hasValueSatisfying(
                v -> assertThat(v).containsExactly(7, 9));
        assertThat(DiskCounter.parse(List.of("read_bytes: x", "write_bytes: 9"))).isEqualTo(Optional.empty());
        assertThat(DiskCounter.parse(List.of("rchar: 1"))).isEmpty();
    }

    @Test
    void recognisesARegionServersOwnThreads() {
        assertThat(LibraRegionServerReporter.ownThread("RpcServer.default.FPBQ.Fifo.handler=3,queue=0,port=16020", 16020)).isTrue();
        assertThat(LibraRegionServerReporter.ownThread("RpcServer.default.FPBQ.Fifo.handler=3,queue=0,port=16021", 16020)).isFalse();
        assertThat(LibraRegionServerReporter.ownThread("regionserver/localhost:16020-shortCompactions-0", 16020)).isTrue();
    }
}
