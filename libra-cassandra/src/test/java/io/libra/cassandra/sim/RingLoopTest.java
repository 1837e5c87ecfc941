package io.libra.cassandra.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.plan.Action;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.ring.Tokens;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The sidecar's planning rounds in closed loop on a simulated single-token ring. */
class RingLoopTest {
    private static final Scenario CALM = Scenario.byName("calm");

    @Test
    void theSidecarBalancesARingOfUnevenTokensByTheThirdWindowCheckingEachForecast() {
        RingLoop loop = new RingLoop(CALM, 2, CostModel.Form.BLOCKS);
        assertThat(loop.score().worst()).as("random tokens").isGreaterThan(1.5);
        List<Plan> plans = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            assertThat(loop.round()).as("bytes streamed in round %d", r + 1).isPositive();
            plans.add(loop.lastPlan());
        }
        Score end = loop.score();
        assertThat(end.cpuMaxOverMean()).isLessThanOrEqualTo(1.10);
        assertThat(end.diskMaxOverMean()).isLessThanOrEqualTo(1.10);
        assertThat(loop.refused()).isZero();
        for (Plan p : plans.subList(1, 3)) {
            assertThat(p.estimation().lastPredictionError()).as("the last moves' forecast checked").isBetween(0.0, 0.1);
            assertThat(p.detail()).as("a token move is not a change of workload").doesNotContain("workload itself moved");
        }
    }

    /**
     * A round held back after a forecast miss carries the moves' forecast on; checked again a window
     * later, that held check lets a measured step out of the hold instead of holding for good.
     */
    @Test
    void aRingHeldAfterAMissStepsOutOnceTheHeldLayoutWasMeasuredTwice() {
        RingLoop loop = new RingLoop(Scenario.byName("ycsb-b"), 1, CostModel.Form.BLOCKS);
        loop.round();
        double afterFirst = loop.score().worst();
        loop.round();
        assertThat(loop.lastPlan().actions()).isEmpty();
        assertThat(loop.lastPlan().detail()).contains("not worth moving");
        assertThat(loop.round()).isPositive();
        assertThat(loop.lastPlan().detail()).contains("measured step");
        assertThat(loop.score().worst()).isLessThan(afterFirst - 0.05);
    }

    /**
     * On {@code ycsb-f} seed 5 the estimate misplaces an arc's disk, and n08's token went back and
     * forth over it from window 3 on. Across the sidecar's rounds, a node's token now goes at most
     * halfway back toward a token it left in the last three rounds (a take-back aside).
     */
    @Test
    void aTokenGoesAtMostHalfwayBackToATokenItLeftInTheLastThreeRounds() {
        RingLoop loop = new RingLoop(Scenario.byName("ycsb-f"), 5, CostModel.Form.BLOCKS);
        List<Map<String, List<Long>>> left = new ArrayList<>(); // per round, the tokens each node left
        int returns = 0;
        for (int r = 0; r < 8; r++) {
            Map<String, Long> before = loop.tokens();
            loop.round();
            Map<String, List<Long>> leftNow = new java.util.HashMap<>();
            for (Action a : loop.lastPlan().actions()) {
                MoveTokenAction m = (MoveTokenAction) a;
                leftNow.computeIfAbsent(m.node(), k -> new ArrayList<>()).add(Tokens.fromKey(m.fromToken()));
                if (m.reason().passed().contains(Constraint.REVERT)) {
                    continue;
                }
                long from = before.get(m.node());
                long to = loop.tokens().get(m.node());
                for (Map<String, List<Long>> plan : left.subList(Math.max(0, left.size() - 3), left.size())) {
                    for (long earlier : plan.getOrDefault(m.node(), List.of())) {
                        double way = towards(from, earlier, to);
                        if (way > 0) {
                            returns++;
                            assertThat(travelled(from, to)).as("round %d: %s back toward a token it left", r + 1, m.node())
                                    .isLessThanOrEqualTo(way / 2);
                        }
                    }
                }
            }
            left.add(leftNow);
        }
        assertThat(returns).as("the run turned tokens back").isPositive();
    }

    /** The way from {@code from} to {@code earlier} when it lies the way {@code from} went to {@code to}, else 0. */
    private static double towards(long from, long earlier, long to) {
        boolean clockwise = Tokens.width(Tokens.clockwise(from, to)) <= Tokens.width(Tokens.clockwise(to, from));
        double way = Tokens.width(clockwise ? Tokens.clockwise(from, earlier) : Tokens.clockwise(earlier, from));
        return earlier != from && way < 0x1p63 ? way : 0;
    }

    private static double travelled(long from, long to) {
        return Math.min(Tokens.width(Tokens.clockwise(from, to)), Tokens.width(Tokens.clockwise(to, from)));
    }

    @Test
    void equalSeedsGiveEqualRuns() {
        RingLoop.Run a = RingLoop.run(new RingLoop(CALM, 5, CostModel.Form.DISK_SPEED), 3);
        RingLoop.Run b = RingLoop.run(new RingLoop(CALM, 5, CostModel.Form.DISK_SPEED), 3);
        assertThat(b.streamed()).isEqualTo(a.streamed());
        assertThat(b.after().stream().map(Score::worst).toList()).isEqualTo(a.after().stream().map(Score::worst).toList());
    }

    @Test
    void aTokenMoveStreamsTheArcsWhoseReplicasChangeAndARefusedOneNothing() {
        HiddenRing ring = new HiddenRing(CALM.nodeSpecs(), CostModel.DEFAULT, 3,
                HiddenRing.hashed(CALM.workload(1, 0), new SplittableRandom(1)), new SplittableRandom(2));
        Map<String, Long> before = ring.tokens();
        long step = Long.MAX_VALUE / 64;
        // a node whose token can go back by the step without wrapping or passing another's: a fixed choice,
        // since the iteration order of the ring's (immutable) map differs from one JVM to the next
        String node = new java.util.TreeMap<>(before).entrySet().stream()
                .filter(e -> e.getValue() > Long.MIN_VALUE + step && before.values().stream()
                        .noneMatch(o -> o < e.getValue() && o >= e.getValue() - step))
                .findFirst().orElseThrow().getKey();
        long token = before.get(node);
        assertThat(ring.move(node, token + 1, token - 1)).as("not the node's token").isFalse();
        assertThat(ring.streamedSince(before)).isZero();
        // the node gives 1/128 of the ring to its successor: one new replica of that arc (rf 3), measured in 1/512ths
        assertThat(ring.move(node, token, token - step)).isTrue();
        double arc = CALM.workload(1, 0).dataBytes() / 128;
        assertThat(ring.streamedSince(before)).isBetween(arc * 0.75, arc * 1.25);
    }
}
