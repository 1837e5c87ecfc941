package io.libra.hbase.reporter;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The traffic counters of one RegionServer, shared by its region observers (which count) and
 * its reporter (which samples). Keyed by server name because a mini cluster runs several
 * RegionServers in one JVM.
 */
public final class ServerTraffic {
    private static final Map<String, ServerTraffic> BY_SERVER = new ConcurrentHashMap<>();

    private final Map<String, RegionTraffic> regions = new ConcurrentHashMap<>();

    private ServerTraffic() {
    }

    public static ServerTraffic of(String serverName) {
        return BY_SERVER.computeIfAbsent(serverName, k -> new ServerTraffic());
    }

    static void forget(String serverName) {
        BY_SERVER.remove(serverName);
    }

    RegionTraffic region(String encodedRegionName) {
        return regions.computeIfAbsent(encodedRegionName, k -> new RegionTraffic());
    }

    /** Drops a region that closed here, so a later reopen starts from zero. */
    void closed(String encodedRegionName) {
        regions.remove(encodedRegionName);
    }

    Map<String, RegionTraffic> regions() {
        return regions;
    }
}
