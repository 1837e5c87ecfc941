package io.libra.hbase.balancer;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * Per-region read and write request rates from the cumulative counts in successive
 * {@link ClusterMetrics}: each RegionServer's report carries its timestamp, and a rate is the
 * growth of a count between two reports of the same server. A count that went down means the
 * region reopened (moved, split, restarted) and its counter restarted from zero, so all of
 * the new count is taken as the window's growth.
 */
public final class RequestRates {
    /** Rates in requests/s. */
    public record Rate(double readOps, double writeOps) {
        static final Rate NONE = new Rate(0, 0);
    }

    private record Seen(long reads, long writes, long at, Rate rate) {
    }

    private final Map<String, Seen> byRegion = new HashMap<>();

    /** Folds in one view of the cluster; a server whose report did not change keeps its rates. */
    public synchronized void update(ClusterMetrics metrics) {
        if (metrics == null) {
            return;
        }
        for (ServerMetrics server : metrics.getLiveServerMetrics().values()) {
            long at = server.getReportTimestamp();
            for (RegionMetrics region : server.getRegionMetrics().values()) {
                String id = RegionInfo.encodeRegionName(region.getRegionName());
                update(id, region.getReadRequestCount(), region.getWriteRequestCount(), at);
            }
        }
    }

    synchronized void update(String region, long reads, long writes, long atMillis) {
        Seen before = byRegion.get(region);
        if (before == null) {
            byRegion.put(region, new Seen(reads, writes, atMillis, null));
            return;
        }
        if (atMillis <= before.at()) {
            return;
        }
        double seconds = (atMillis - before.at()) / 1000.0;
        Rate rate = new Rate(growth(reads, before.reads()) / seconds, growth(writes, before.writes()) / seconds);
        byRegion.put(region, new Seen(reads, writes, atMillis, rate));
    }

    private static long growth(long now, long before) {
        return now >= before ? now - before : now;
    }

    /** The latest rate of a region; zero until two reports of it have been seen. */
    public synchronized Rate rate(String encodedRegionName) {
        Seen s = byRegion.get(encodedRegionName);
        return s == null || s.rate() == null ? Rate.NONE : s.rate();
    }

    /** True once a region has a rate, i.e. two of its reports were seen. */
    public synchronized boolean known(String encodedRegionName) {
        Seen s = byRegion.get(encodedRegionName);
        return s != null && s.rate() != null;
    }

    /** Forgets the regions that no server of {@code metrics} carries any more. */
    public synchronized void retainLive(ClusterMetrics metrics) {
        if (metrics != null) {
            retain(liveRegions(metrics));
        }
    }

    /** The encoded names of the regions the live servers of {@code metrics} carry. */
    static java.util.Set<String> liveRegions(ClusterMetrics metrics) {
        java.util.Set<String> live = new java.util.HashSet<>();
        for (ServerMetrics server : metrics.getLiveServerMetrics().values()) {
            for (RegionMetrics region : server.getRegionMetrics().values()) {
                live.add(RegionInfo.encodeRegionName(region.getRegionName()));
            }
        }
        return live;
    }

    /** Forgets regions no longer in the cluster. */
    public synchronized void retain(java.util.Set<String> live) {
        byRegion.keySet().retainAll(live);
    }
}
