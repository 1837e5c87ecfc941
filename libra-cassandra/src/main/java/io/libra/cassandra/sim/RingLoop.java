package io.libra.cassandra.sim;

import io.libra.cassandra.RingPlanning;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.ring.Tokens;
import io.libra.core.sim.CostModel;
import io.libra.core.sim.Scenario;
import io.libra.core.sim.Score;
import io.libra.core.sim.Simulator;
import io.libra.core.sim.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One scenario and seed run as the sidecar runs a single-token ring: each round the collector's
 * window of the {@link HiddenRing} goes through the sidecar's own {@link RingModelBuilder} and
 * {@link RingPlanning} (history, forecast check, conservative rounds), and the plan's token moves
 * are carried out one by one before the next window, as a rebalance job does. Scored on the
 * scenario's hidden cost model, which the planner never sees. Deterministic for a scenario, seed
 * and planner configuration.
 */
public final class RingLoop {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final Scenario scenario;
    private final long seed;
    private final HiddenRing ring;
    private final RingModelBuilder builder;
    private final RingPlanning planning;
    private Plan last;
    private int round;
    private int refused;

    /** The loop with the sidecar's planner settings as {@code config} gives them. */
    public RingLoop(Scenario s, long seed, CostModel.Form form, SidecarConfig config) {
        this.scenario = s;
        this.seed = seed;
        CostModel cost = CostModel.drawn(s, seed).withForm(form);
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_033L + 11);
        this.ring = new HiddenRing(s.nodeSpecs(), cost, s.replication(), hashed(s.workload(seed, 0)), rnd);
        ring.calibrate();
        this.builder = new RingModelBuilder(config.collection.subrangesPerArc, config.planner.estimation(), declared(s));
        this.planning = new RingPlanning(config.planner, null);
    }

    /** Where a scenario's nodes differ in size, the operator declares each one's disk (disk_capacity_bytes_per_sec). */
    private static Map<String, Double> declared(Scenario s) {
        Map<String, Double> out = new TreeMap<>();
        if (s.capacities() != null) {
            s.nodeSpecs().forEach(n -> out.put(n.id(), n.diskBytesPerSec()));
        }
        return out;
    }

    /** The sidecar's defaults (sidecar.example.yaml), with history and the fluctuation guard as shipped. */
    public RingLoop(Scenario s, long seed, CostModel.Form form) {
        this(s, seed, form, new SidecarConfig());
    }

    /** One round: a window, a plan on it, every token move carried out; the bytes streamed to new replicas. */
    public double round() {
        shiftWorkload();
        Window w = ring.window(START.plusSeconds((long) (Simulator.WINDOW_SECONDS * ++round)), Simulator.WINDOW_SECONDS,
                new SplittableRandom(seed * 1_000_003L + round));
        last = planning.plan(builder.build(w)).plan();
        if (last.actions().isEmpty()) {
            return 0;
        }
        Map<String, Long> before = ring.tokens();
        planning.forgetExecuted();
        int done = 0;
        for (Action a : last.actions()) {
            MoveTokenAction m = (MoveTokenAction) a;
            if (ring.move(m.node(), Tokens.fromKey(m.fromToken()), Tokens.fromKey(m.toToken()))) {
                done++;
                planning.ringMoved();
            } else {
                refused++;
            }
        }
        if (done == last.actions().size()) {
            planning.executed(last);
        }
        return ring.streamedSince(before);
    }

    /** Hot spots that move every few rounds move on the ring too. */
    private void shiftWorkload() {
        if (round > 0 && scenario.shiftEvery() > 0 && round % scenario.shiftEvery() == 0) {
            double ops = ring.workload().totalOps();
            ring.workload(hashed(scenario.workload(seed, round)).withTotalOps(ops));
        }
    }

    /** A workload of this run on the ring: every round's keys hash to the same tokens. */
    private Workload hashed(Workload w) {
        return HiddenRing.hashed(w, new SplittableRandom(seed * 977 + 3));
    }

    /** The ring's truth as it stands, on the hidden cost model. */
    public Score score() {
        return ring.score();
    }

    /** The plan of the last round; null before the first. */
    public Plan lastPlan() {
        return last;
    }

    /** Each node's token now. */
    public Map<String, Long> tokens() {
        return ring.tokens();
    }

    /** Token moves the ring refused (a plan made for another ring). */
    public int refused() {
        return refused;
    }

    /** The true Max/Mean after each of {@code rounds} rounds, and the bytes each streamed. */
    public record Run(Score start, List<Score> after, List<Double> streamed, int planned, int refused) {
    }

    public static Run run(RingLoop loop, int rounds) {
        Score start = loop.score();
        List<Score> after = new ArrayList<>();
        List<Double> streamed = new ArrayList<>();
        int planned = 0;
        for (int r = 0; r < rounds; r++) {
            streamed.add(loop.round());
            planned += loop.lastPlan().actions().size();
            after.add(loop.score());
        }
        return new Run(start, after, streamed, planned, loop.refused());
    }
}
