package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * A region is not split on a server it left within the moved-region record's lifetime plus the
 * master's time to carry out moves; elsewhere, and after that, it may be.
 */
class RegionDeparturesTest {
    private static final Instant T0 = Instant.parse("2026-11-26T12:00:00Z");
    private static final Duration MOVES = Duration.ofSeconds(30);

    @Test
    void aRegionBackOnAServerItLeftByLibrasMoveIsNotSplitThereUntilTheRecordExpires() {
        RegionDepartures d = new RegionDepartures(MOVES);
        d.observe(Map.of("r1", "a"), T0);
        d.left("r1", "a", T0.plusSeconds(5));
        assertThat(d.refusal("r1", "b", T0.plusSeconds(40))).as("never left b").isEmpty();
        d.observe(Map.of("r1", "a"), T0.plusSeconds(70));
        assertThat(d.refusal("r1", "a", T0.plusSeconds(70))).hasValue("it left a 65 s ago and is back: that server keeps"
                + " its moved-region record for 120 s, and clients of the split parent would bounce between the two"
                + " servers until then; not split for 150 s after leaving");
        assertThat(d.refusal("r1", "a", T0.plusSeconds(5 + 149))).isPresent();
        assertThat(d.refusal("r1", "a", T0.plusSeconds(5 + 150))).isEmpty();
    }

    @Test
    void aMoveSeenBetweenRunsCountsAsLeavingAtTheLaterRun() {
        RegionDepartures d = new RegionDepartures(MOVES);
        d.observe(Map.of("r1", "a", "r2", "a"), T0);
        d.observe(Map.of("r1", "b", "r2", "a"), T0.plusSeconds(60));
        assertThat(d.refusal("r1", "a", T0.plusSeconds(60))).isPresent();
        assertThat(d.refusal("r2", "a", T0.plusSeconds(60))).as("r2 never moved").isEmpty();
        assertThat(d.refusal("r1", "a", T0.plusSeconds(60 + 150))).isEmpty();
    }

    @Test
    void aRegionMissingFromOneRunIsStillRememberedButNotForever() {
        RegionDepartures d = new RegionDepartures(MOVES);
        d.observe(Map.of("r1", "a"), T0);
        d.observe(Map.of(), T0.plusSeconds(30)); // in transition, or in another group's call
        d.observe(Map.of("r1", "b"), T0.plusSeconds(60));
        assertThat(d.refusal("r1", "a", T0.plusSeconds(60))).isPresent();
        Instant later = T0.plusSeconds(60).plus(RegionDepartures.FORGET_AFTER);
        d.observe(Map.of(), later);
        d.observe(Map.of("r1", "a"), later.plusSeconds(1));
        assertThat(d.refusal("r1", "b", later.plusSeconds(1))).as("its last sighting was forgotten").isEmpty();
    }

    /**
     * A master taking over a saved history knows where each region was at the old master's last
     * window and which regions its last plan moved: a region moved away and back since is refused
     * as if this master had watched it, and so is one found elsewhere than in that window.
     */
    @Test
    void aMasterTakingOverASavedHistoryKnowsThePreviousMastersDepartures() {
        ClusterSnapshot saved = Skewed.snapshot(); // r-0 on rs-1, r-1 on rs-2, r-2 on rs-3, ...
        Plan carriedOut = new Plan("libra", List.of(new MoveAction("r-0", "rs-1", "rs-4", 1, null)), null, null,
                PlanStatus.PLANNED, "");
        RegionDepartures d = new RegionDepartures(MOVES);
        d.takeOver(List.of(saved), carriedOut);
        Instant now = Skewed.AT.plusSeconds(90);
        d.observe(Map.of("r-0", "rs-1", "r-1", "rs-3", "r-2", "rs-3"), now);
        assertThat(d.refusal("r-0", "rs-1", now)).as("moved away by the old master's plan, and back")
                .hasValueSatisfying(why -> assertThat(why).startsWith("it left rs-1 90 s ago and is back"));
        d.observe(Map.of("r-1", "rs-2"), now.plusSeconds(10));
        assertThat(d.refusal("r-1", "rs-2", now.plusSeconds(10))).as("seen elsewhere than in the saved window").isPresent();
        assertThat(d.refusal("r-2", "rs-3", now)).as("never moved").isEmpty();
        assertThat(d.refusal("r-0", "rs-1", Skewed.AT.plusSeconds(150))).as("the record and the move window are over").isEmpty();
        RegionDepartures fresh = new RegionDepartures(MOVES);
        fresh.observe(Map.of("r-0", "rs-1"), now);
        assertThat(fresh.refusal("r-0", "rs-1", now)).as("without the saved history nothing is known").isEmpty();
    }

    @Test
    void theMastersMoveWindowIsMaxBalancingOrHalfThePeriod() {
        Configuration conf = new Configuration(false);
        assertThat(RegionDepartures.movesTakeUpTo(conf)).isEqualTo(Duration.ofSeconds(150));
        conf.setLong("hbase.balancer.period", 60_000);
        assertThat(RegionDepartures.movesTakeUpTo(conf)).isEqualTo(Duration.ofSeconds(30));
        conf.setLong("hbase.balancer.max.balancing", 10_000);
        assertThat(RegionDepartures.movesTakeUpTo(conf)).isEqualTo(Duration.ofSeconds(10));
    }
}
