package io.libra.hbase.balancer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Splits HBase refused, remembered for {@link #RETRY_AFTER}. A daughter holds reference files to
 * its parent's store files until its own compaction, and HBase refuses to split it until then
 * ("NOT splittable"); planning that split again every run would count on a split that cannot
 * happen, so the planner is told the region cannot be split for now and plans around it.
 */
final class SplitRefusals {
    /** About one default balancer period (5 min) after which a compaction has usually run. */
    static final Duration RETRY_AFTER = Duration.ofMinutes(5);

    private final Map<String, Refusal> refused = new HashMap<>();

    private record Refusal(Instant at, String why) {
    }

    synchronized void refused(String region, String why, Instant now) {
        refused.put(region, new Refusal(now, why));
    }

    /** Why the region's split is not to be planned now, if HBase refused it less than {@link #RETRY_AFTER} ago. */
    synchronized Optional<String> refusal(String region, Instant now) {
        refused.values().removeIf(r -> !r.at().plus(RETRY_AFTER).isAfter(now));
        Refusal r = refused.get(region);
        return r == null ? Optional.empty() : Optional.of(String.format(java.util.Locale.ROOT,
                "HBase refused its split %d s ago (%s), tried again %d s after that", Duration.between(r.at(), now)
                        .toSeconds(), r.why(), RETRY_AFTER.toSeconds()));
    }
}
