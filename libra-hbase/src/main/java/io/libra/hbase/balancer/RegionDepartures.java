package io.libra.hbase.balancer;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which server each region left lately, so that a region is not split on a server it came back to
 * while that server still answers for it with a "moved" record.
 *
 * <p>A RegionServer a region leaves keeps a record "moved to X" for two minutes (HBase's
 * {@code TIMEOUT_REGION_MOVED}) and, in HBase 2.x, does not clear it when the master's procedures
 * open the region there again. Once such a region is split, its old name is answered with that
 * record by the server it came back to and with "moved back" by the server it had gone to: a
 * client holding the parent's location bounces between the two until the record expires, without
 * ever looking the daughters up (the deployed IT's batched get stalled about 95 s that way).
 *
 * <p>Departures are known from the moves Libra hands the master and from a region seen on another
 * server than at the last run (then dated now, the latest it can have happened). A master that
 * takes over a saved history ({@code hbase.libra.history.save}) also takes over what the previous
 * master knew ({@link #takeOver}); without one, it knows nothing from before its first run.
 */
final class RegionDepartures {
    /** How long a RegionServer keeps a moved region's record (HRegionServer.TIMEOUT_REGION_MOVED). */
    static final Duration MOVED_RECORD = Duration.ofMinutes(2);

    /** A region not seen for this long is forgotten (split, dropped, or in a group no longer balanced). */
    static final Duration FORGET_AFTER = Duration.ofHours(1);

    private Duration window;
    private final Map<String, Sighting> lastSeen = new HashMap<>();
    private final Map<String, Map<String, Instant>> left = new HashMap<>();

    private record Sighting(String server, Instant at) {
    }

    /** @param movesTakeUpTo how long after a run the master may still be carrying out its moves */
    RegionDepartures(Duration movesTakeUpTo) {
        movesTakeUpTo(movesTakeUpTo);
    }

    /** A reconfigured master keeps what it knows of departures; only the window changes. */
    synchronized void movesTakeUpTo(Duration d) {
        this.window = MOVED_RECORD.plus(d);
    }

    /** The master's window for a balance call's moves: {@code hbase.balancer.max.balancing}, by default half the period. */
    static Duration movesTakeUpTo(org.apache.hadoop.conf.Configuration conf) {
        long period = conf.getLong("hbase.balancer.period", 300_000);
        long max = conf.getLong("hbase.balancer.max.balancing", -1);
        return Duration.ofMillis(Math.max(0, max > 0 ? max : period / 2));
    }

    /** Where each region is now (region → server); a region found elsewhere than last time left its old server. */
    synchronized void observe(Map<String, String> serverOf, Instant now) {
        lastSeen.values().removeIf(s -> !s.at().plus(FORGET_AFTER).isAfter(now));
        left.values().forEach(byServer -> byServer.values().removeIf(at -> !at.plus(window).isAfter(now)));
        left.values().removeIf(Map::isEmpty);
        serverOf.forEach((region, server) -> {
            Sighting before = lastSeen.put(region, new Sighting(server, now));
            if (before != null && !before.server().equals(server)) {
                left(region, before.server(), now);
            }
        });
    }

    /**
     * What a previous master's saved history tells: where each region was in its newest window, so
     * this master's first run sees the moves made since, and the moves of its last carried-out plan,
     * dated at that window. They were made after it, within the master's move window, so the refusal
     * (the moved-region record plus that window) still covers them; an older plan's moves, more so.
     */
    synchronized void takeOver(List<ClusterSnapshot> windows, Plan carriedOut) {
        if (windows.isEmpty()) {
            return;
        }
        ClusterSnapshot newest = windows.get(windows.size() - 1);
        Instant at = newest.capturedAt();
        newest.regions().forEach(r -> lastSeen.putIfAbsent(r.id(), new Sighting(r.node(), at)));
        if (carriedOut != null) {
            carriedOut.actions().stream().filter(MoveAction.class::isInstance).map(MoveAction.class::cast)
                    .forEach(m -> left(m.region(), m.from(), at));
        }
    }

    /** A region leaves {@code server} at {@code when} (a move handed to the master). */
    synchronized void left(String region, String server, Instant when) {
        left.computeIfAbsent(region, r -> new HashMap<>()).put(server, when);
    }

    /** Why the region may not be split on {@code server} now, if it left that server less than the window ago. */
    synchronized Optional<String> refusal(String region, String server, Instant now) {
        Instant at = left.getOrDefault(region, Map.of()).get(server);
        if (at == null || !at.plus(window).isAfter(now)) {
            return Optional.empty();
        }
        return Optional.of(String.format(java.util.Locale.ROOT, "it left %s %d s ago and is back: that server keeps its"
                + " moved-region record for %d s, and clients of the split parent would bounce between the two"
                + " servers until then; not split for %d s after leaving", server, Duration.between(at, now).toSeconds(),
                MOVED_RECORD.toSeconds(), window.toSeconds()));
    }
}
