package io.libra.hbase.reporter;

import io.libra.core.model.KeyBucket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Turns cumulative figures into the rates of one window: CPU nanoseconds into cores busy, disk
 * bytes into bytes/s, region counters into requests/s and bytes/s. A counter that went down
 * (a region reopened, a thread ended) restarts its window from its new value.
 */
final class LoadSampler {
    /** Requests a region needs in a window for its sampled work to count as measured (about 4 samples). */
    static final double MIN_SAMPLED_OPS = 4.0 * WorkMeter.DEFAULT_EVERY;
    private final String serverName;
    private final double cpuCores;
    private final double diskCapacity;
    private final CpuClock cpu;
    private final DiskCounter disk;
    private final LongSupplier nanoTime;
    private final LongSupplier wallMillis;

    private long lastNanos = -1;
    private long lastCpu = -1;
    private long[] lastDisk;
    private String lastDiskSource;
    private Map<String, long[]> lastRegions = Map.of();

    LoadSampler(String serverName, double cpuCores, CpuClock cpu, DiskCounter disk, LongSupplier nanoTime,
                LongSupplier wallMillis) {
        this(serverName, cpuCores, 0, cpu, disk, nanoTime, wallMillis);
    }

    LoadSampler(String serverName, double cpuCores, double diskCapacity, CpuClock cpu, DiskCounter disk,
                LongSupplier nanoTime, LongSupplier wallMillis) {
        this.serverName = serverName;
        this.cpuCores = cpuCores;
        this.diskCapacity = diskCapacity;
        this.cpu = cpu;
        this.disk = disk;
        this.nanoTime = nanoTime;
        this.wallMillis = wallMillis;
    }

    /** Samples now; empty on the first call, which only sets the baseline. */
    Optional<LoadReport> sample(ServerTraffic traffic) {
        long now = nanoTime.getAsLong();
        long cpuNow = cpu.cpuNanos();
        long[] diskNow = disk == null ? null : disk.read().orElse(null);
        String diskSource = disk == null ? null : disk.name();
        Map<String, long[]> regionsNow = new HashMap<>();
        Map<String, RegionTraffic> regions = new HashMap<>(traffic.regions());
        regions.forEach((region, t) -> regionsNow.put(region, t.sample()));
        Optional<LoadReport> report = lastNanos < 0 || now <= lastNanos
                ? Optional.empty()
                : Optional.of(report(now, cpuNow, diskNow, diskSource, regionsNow).withKeyHistograms(histograms(regions,
                        regionsNow, now)));
        if (report.isEmpty()) {
            regions.values().forEach(t -> t.keys.drain()); // the baseline window's samples are not rated
        }
        lastNanos = now;
        lastCpu = cpuNow;
        lastDisk = diskNow;
        lastDiskSource = diskSource;
        lastRegions = regionsNow;
        return report;
    }

    private LoadReport report(long now, long cpuNow, long[] diskNow, String diskSource, Map<String, long[]> regionsNow) {
        double seconds = (now - lastNanos) / 1e9;
        Map<String, double[]> rates = new HashMap<>();
        double userRead = 0;
        double userWrite = 0;
        for (Map.Entry<String, long[]> e : regionsNow.entrySet()) {
            double[] r = rates(e.getValue(), lastRegions.get(e.getKey()), seconds);
            rates.put(e.getKey(), r);
            userRead += r[2];
            userWrite += r[3];
        }
        boolean cpuKnown = cpuNow >= 0 && lastCpu >= 0;
        double cores = cpuKnown ? Math.min(cpuCores, Math.max(0, cpuNow - lastCpu) / 1e9 / seconds) : 0;
        // both ends of the window from the same source, or the figures do not compare
        boolean diskKnown = diskNow != null && lastDisk != null && java.util.Objects.equals(diskSource, lastDiskSource);
        double diskRead = diskKnown ? delta(diskNow[0], lastDisk[0]) / seconds : userRead;
        double diskWrite = diskKnown ? delta(diskNow[1], lastDisk[1]) / seconds : userWrite;
        return new LoadReport(serverName, wallMillis.getAsLong(), seconds, cpuCores, cores,
                cpuKnown ? cpu.name() : "none", diskRead, diskWrite, diskKnown ? diskSource : "user-bytes", rates,
                diskCapacity);
    }

    /** Each region's sampled keys, as sub-ranges carrying their share of the region's rates. */
    private Map<String, List<KeyBucket>> histograms(Map<String, RegionTraffic> regions, Map<String, long[]> regionsNow,
                                                    long now) {
        double seconds = (now - lastNanos) / 1e9;
        Map<String, List<KeyBucket>> out = new HashMap<>();
        regions.forEach((region, t) -> {
            List<KeySample.Sample> samples = t.keys.drain();
            if (!samples.isEmpty()) {
                out.put(region, KeySample.histogram(samples, t.endKey,
                        rates(regionsNow.get(region), lastRegions.get(region), seconds)));
            }
        });
        return out;
    }

    private static double[] rates(long[] now, long[] before, double seconds) {
        double[] r = new double[now.length];
        for (int i = 0; i < now.length; i++) {
            long prev = before == null || before.length <= i ? 0 : before[i];
            r[i] = delta(now[i], prev) / seconds;
        }
        if (r.length > LoadReportMBean.MEASURED_CPU) {
            r[LoadReportMBean.MEASURED_CPU] /= 1e9; // CPU nanoseconds per second: cores
            double ops = (r[LoadReportMBean.READ_OPS] + r[LoadReportMBean.WRITE_OPS]) * seconds;
            if (ops > 0 && ops < MIN_SAMPLED_OPS) {
                // too few requests for a sampled figure: not measured (the planner maps counters instead)
                r[LoadReportMBean.MEASURED_CPU] = Double.NaN;
                r[LoadReportMBean.MEASURED_DISK] = Double.NaN;
            }
        }
        return r;
    }

    /** Growth of a counter; a counter that went down restarted, so all of its value is new. */
    static long delta(long now, long before) {
        return now >= before ? now - before : now;
    }
}
