package io.libra.hbase.reporter;

import java.util.Map;

/**
 * One window of a RegionServer's load, as published on its JMX: process CPU (cores busy), disk
 * bytes/s, and per region user requests/s and payload bytes/s.
 *
 * @param cpuSource  {@code process} (ProcessCpuTime), {@code threads} (shared JVM) or {@code none}
 * @param diskSource {@code proc-self-io} or {@code user-bytes} (the documented fallback)
 * @param diskCapacityBytesPerSec what the node's disk can do, as configured on the RegionServer; 0 = not declared
 */
public record LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores,
                         double cpuUsage, String cpuSource, double diskReadBytesPerSec,
                         double diskWriteBytesPerSec, String diskSource, Map<String, double[]> regionRates,
                         double diskCapacityBytesPerSec) {
    public LoadReport {
        regionRates = Map.copyOf(regionRates);
    }

    /** A report without a declared disk capacity. */
    public LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores, double cpuUsage,
                      String cpuSource, double diskReadBytesPerSec, double diskWriteBytesPerSec, String diskSource,
                      Map<String, double[]> regionRates) {
        this(serverName, updatedAtMillis, windowSeconds, cpuCores, cpuUsage, cpuSource, diskReadBytesPerSec,
                diskWriteBytesPerSec, diskSource, regionRates, 0);
    }

    public double diskBytesPerSec() {
        return diskReadBytesPerSec + diskWriteBytesPerSec;
    }
}
