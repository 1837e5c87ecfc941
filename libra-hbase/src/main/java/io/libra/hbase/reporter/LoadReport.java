package io.libra.hbase.reporter;

import io.libra.core.model.KeyBucket;
import java.util.List;
import java.util.Map;

/**
 * One window of a RegionServer's load, as published on its JMX: process CPU (cores busy), disk
 * bytes/s, and per region user requests/s and payload bytes/s.
 *
 * @param cpuSource  {@code process} (ProcessCpuTime), {@code threads} (shared JVM) or {@code none}
 * @param diskSource {@code proc-self-io} or {@code user-bytes} (the documented fallback)
 * @param diskCapacityBytesPerSec what the node's disk can do, as configured on the RegionServer; 0 = not declared
 * @param keyHistograms per region, the sub-ranges its sampled row keys fall in, with their share of its rates
 */
public record LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores,
                         double cpuUsage, String cpuSource, double diskReadBytesPerSec,
                         double diskWriteBytesPerSec, String diskSource, Map<String, double[]> regionRates,
                         double diskCapacityBytesPerSec, Map<String, List<KeyBucket>> keyHistograms) {
    public LoadReport {
        regionRates = Map.copyOf(regionRates);
        keyHistograms = keyHistograms == null ? Map.of() : Map.copyOf(keyHistograms);
    }

    /** A report without key histograms. */
    public LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores, double cpuUsage,
                      String cpuSource, double diskReadBytesPerSec, double diskWriteBytesPerSec, String diskSource,
                      Map<String, double[]> regionRates, double diskCapacityBytesPerSec) {
        this(serverName, updatedAtMillis, windowSeconds, cpuCores, cpuUsage, cpuSource, diskReadBytesPerSec,
                diskWriteBytesPerSec, diskSource, regionRates, diskCapacityBytesPerSec, Map.of());
    }

    /** A report without a declared disk capacity. */
    public LoadReport(String serverName, long updatedAtMillis, double windowSeconds, double cpuCores, double cpuUsage,
                      String cpuSource, double diskReadBytesPerSec, double diskWriteBytesPerSec, String diskSource,
                      Map<String, double[]> regionRates) {
        this(serverName, updatedAtMillis, windowSeconds, cpuCores, cpuUsage, cpuSource, diskReadBytesPerSec,
                diskWriteBytesPerSec, diskSource, regionRates, 0);
    }

    /** This report with per-region key histograms. */
    public LoadReport withKeyHistograms(Map<String, List<KeyBucket>> histograms) {
        return new LoadReport(serverName, updatedAtMillis, windowSeconds, cpuCores, cpuUsage, cpuSource,
                diskReadBytesPerSec, diskWriteBytesPerSec, diskSource, regionRates, diskCapacityBytesPerSec, histograms);
    }

    public double diskBytesPerSec() {
        return diskReadBytesPerSec + diskWriteBytesPerSec;
    }
}
