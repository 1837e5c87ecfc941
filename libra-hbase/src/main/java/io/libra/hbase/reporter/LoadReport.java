package io.libra.hbase.reporter;

import java.util.Map;

/**
 * One window of a RegionServer's load, as published on its JMX: process CPU (cores busy), disk
 * bytes/s, and per region user requests/s and payload bytes/s.
 *
 * @param cpuSource  {@code process} (ProcessCpuTime), {@code threads} (shared JVM) or {@code none}
 * @param diskSource {@code proc-self-io} or {@code user-bytes} (the documented fallback)
 */
public record LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores,
                         double cpuUsage, String cpuSource, double diskReadBytesPerSec,
                         double diskWriteBytesPerSec, String diskSource, Map<String, double[]> regionRates) {
    public LoadReport {
        regionRates = Map.copyOf(regionRates);
    }

    public double diskBytesPerSec() {
        return diskReadBytesPerSec + diskWriteBytesPerSec;
    }
}
