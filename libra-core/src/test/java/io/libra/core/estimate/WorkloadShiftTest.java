package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.libra.core.Clusters;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workload's own change between windows, from region counters alone. */
class WorkloadShiftTest {

    /** Two nodes of four regions, 100 reads/s of 1 KB each. */
    private static List<Region> even() {
        List<Region> regions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            regions.add(Clusters.region(i, "n" + (i % 2), 100, 0, 100_000, 0));
        }
        return regions;
    }

    private static WorkloadShift between(List<Region> before, List<Region> now) {
        return WorkloadShift.between(Clusters.snapshot(2, before), Clusters.snapshot(2, now));
    }

    @Test
    void theSameCountersAreNoShift() {
        assertThat(between(even(), even())).isEqualTo(new WorkloadShift(0, 0));
    }

    @Test
    void aMovedRegionIsNoShift() {
        List<Region> now = even();
        now.set(0, now.get(0).onNode("n1"));
        assertThat(between(even(), now).share()).isZero();
    }

    @Test
    void aSplitRegionIsNoShiftHoweverUnevenItsDaughters() {
        List<Region> now = even();
        Region parent = now.remove(0);
        KeyRange r = parent.range();
        now.add(new Region("r0.l", "t", new KeyRange(r.startKey(), "00000000+"), "n0", 5e5, new RegionCounters(90, 0, 90_000, 0)));
        now.add(new Region("r0.r", "t", new KeyRange("00000000+", r.endKey()), "n1", 5e5, new RegionCounters(10, 0, 10_000, 0)));
        assertThat(between(even(), now).share()).isCloseTo(0, offset(1e-12));
    }

    @Test
    void aRangeReCutUnderTheSameIdIsNoShift() {
        // a ring's token move: r0 (on n0) gives the upper part of its range, and the load there, to r1 (on n1)
        List<Region> now = even();
        Region r0 = now.get(0);
        Region r1 = now.get(1);
        String cut = r0.range().endKey().substring(0, r0.range().endKey().length() - 1);
        now.set(0, new Region("r0", "t", new KeyRange("", cut), "n0", 5e5, new RegionCounters(50, 0, 50_000, 0)));
        now.set(1, new Region("r1", "t", new KeyRange(cut, r1.range().endKey()), "n1", 1.5e6,
                new RegionCounters(150, 0, 150_000, 0)));
        assertThat(between(even(), now).share()).isCloseTo(0, offset(1e-12));
    }

    @Test
    void aTableTurningHotIsAShiftOnTheNodesThatServeIt() {
        List<Region> now = even();
        now.add(new Region("hot", "new", new KeyRange("", ""), "n0", 1e6, new RegionCounters(400, 0, 400_000, 0)));
        WorkloadShift s = between(even(), now);
        // n0 400 → 800 req/s, n1 unchanged: 400 of 1,200
        assertThat(s.ops()).isCloseTo(400.0 / 1200, offset(1e-12));
        assertThat(s.bytes()).isCloseTo(400.0 / 1200, offset(1e-12));
    }

    @Test
    void largerValuesAtTheSameRequestRateAreAShiftInBytes() {
        List<Region> now = even();
        now.set(0, Clusters.region(0, "n0", 100, 0, 500_000, 0));
        WorkloadShift s = between(even(), now);
        assertThat(s.ops()).isZero();
        assertThat(s.share()).isEqualTo(s.bytes()).isCloseTo(400_000.0 / 1_200_000, offset(1e-12));
    }

    @Test
    void aTableThatStoppedIsAShiftToo() {
        List<Region> before = even();
        before.add(new Region("gone", "old", new KeyRange("", ""), "n0", 1e6, new RegionCounters(400, 0, 400_000, 0)));
        assertThat(between(before, even()).ops()).isCloseTo(400.0 / 1200, offset(1e-12));
    }

    @Test
    void windowsOfAClusterThatServesNothingAreNoShift() {
        ClusterSnapshot idle = Clusters.snapshot(2, List.of());
        assertThat(WorkloadShift.between(idle, idle).share()).isZero();
    }
}
