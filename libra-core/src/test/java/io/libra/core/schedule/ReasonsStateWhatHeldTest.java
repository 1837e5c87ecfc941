package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every reason is produced by the conditions it names: each action is replayed on an
 * independent applier, and each constraint the reason lists is re-checked there from the
 * paper's formulas, with the state the action met.
 */
class ReasonsStateWhatHeldTest {
    private static final double EPS = 1e-9;
    /** A comparison a clause states: a figure, the relation, an optional label, the figure compared with. */
    private static final Pattern RELATION = Pattern.compile(
            "(-?\\d+\\.\\d+) (<|>|>=|≤) (?:1\\+λ=|λ/2=|λ = |cpu |disk |score\\([^)]*\\) )?(-?\\d+\\.\\d+)");
    /** "x > 1": a figure stated above its target. */
    private static final Pattern ABOVE_ONE = Pattern.compile("(-?\\d+\\.\\d+) > 1(?![.\\d])");
    private static final SchedulerConfig CONFIG = SchedulerConfig.DEFAULT;
    private static final PlanApplier APPLIER = new PlanApplier(EstimationConfig.DEFAULT);
    private static final Map<String, double[]> SCORES = Map.of(
            "1d-cpu", new double[] {1, 0}, "1d-io", new double[] {0, 1}, "2d-wtd", new double[] {0.5, 0.5});

    @Provide
    Arbitrary<ClusterSnapshot> clusters() {
        return ClusterArbitraries.clusters();
    }

    /**
     * In either mode, with or without a checked forecast (which lets a hot node descend by the pair's
     * peak); a run that may raise no new peak moves nothing above the peak it relieves.
     */
    @Property(tries = 300)
    void libraRunStatesOnlyConditionsThatHeld(@ForAll("clusters") ClusterSnapshot s, @ForAll boolean noNewPeak,
                                              @ForAll boolean checked) {
        LoadModel model = Planner.builder().build().estimate(s);
        SchedulerConfig config = checked ? CONFIG.withLanding(2 * CONFIG.lambda()) : CONFIG;
        List<Action> raw = new CooperativeRun(model, new PlanningContext(config, EstimationConfig.DEFAULT), noNewPeak)
                .schedule();
        for (int i = 0; i < raw.size(); i++) {
            LoadModel now = APPLIER.apply(model, raw.subList(0, i));
            Action a = raw.get(i);
            if (a instanceof MoveAction m) {
                checkMove(now, m, null);
                if (noNewPeak) {
                    checkNoNewPeak(now, m);
                }
            } else if (a instanceof SplitAction sp) {
                checkSplit(now, sp);
            }
        }
    }

    @Property(tries = 200)
    void baselinesStateOnlyConditionsThatHeld(@ForAll("clusters") ClusterSnapshot s) {
        for (String strategy : List.of("1d-cpu", "1d-io", "2d-wtd", "2d-iso")) {
            Planner planner = Planner.builder().strategy(strategy).build();
            LoadModel model = planner.estimate(s);
            List<Action> actions = planner.plan(model).actions();
            for (int i = 0; i < actions.size(); i++) {
                MoveAction m = (MoveAction) actions.get(i);
                Dimension d = m.reason().criticalDimension();
                double[] w = SCORES.getOrDefault(strategy, d == Dimension.CPU ? new double[] {1, 0} : new double[] {0, 1});
                checkMove(APPLIER.apply(model, actions.subList(0, i)), m, w);
            }
        }
    }

    /** After lazy scheduling merges hops, a move's reason still names its own source and destination. */
    @Property(tries = 300)
    void finalPlanReasonsNameTheMovesOwnNodes(@ForAll("clusters") ClusterSnapshot s) {
        for (Action a : Planner.builder().build().plan(s).plan().actions()) {
            if (a instanceof MoveAction m) {
                assertThat(m.reason().source().node()).isEqualTo(m.from());
                assertThat(m.reason().destination().node()).isEqualTo(m.to());
            }
        }
    }

    private static void checkMove(LoadModel now, MoveAction m, double[] score) {
        Reason why = m.reason();
        int src = now.nodeIndex(m.from());
        int dst = now.nodeIndex(m.to());
        RegionLoad r = region(now, m.region());
        assertThat(r.node()).isEqualTo(m.from());
        assertThat(why.source().node()).isEqualTo(m.from());
        assertThat(why.destination().node()).isEqualTo(m.to());
        assertThat(why.source().before()).isCloseTo(now.deviation(src), org.assertj.core.data.Offset.offset(1e-6));
        Dimension d = why.criticalDimension();
        Dimension o = d.other();
        for (Constraint c : why.passed()) {
            boolean held = switch (c) {
                case LOAD_CONSTRAINT -> score(now, dst, score, d) + share(now, r, dst, score, d) < 1 + CONFIG.lambda() + EPS;
                case INTERFERENCE_CONSTRAINT -> share(now, r, src, o) < share(now, r, src, d) + EPS
                        && share(now, r, dst, o) < share(now, r, dst, d) + EPS;
                case SHARED_RELIEF -> now.normalized(src, o) > 1 - EPS
                        && now.normalized(dst, o) + share(now, r, dst, o) < 1 + CONFIG.lambda() + EPS;
                case HEADROOM_RELIEF -> share(now, r, src, o) < share(now, r, src, d) + EPS
                        && now.normalized(dst, o) + share(now, r, dst, o) < 1 + CONFIG.lambda() + EPS;
                case PEAK_TRADE -> now.normalized(dst, o) + share(now, r, dst, o) < now.normalized(src, d) - CONFIG.lambda() + EPS;
                case OWN_LOAD_RELIEF -> now.normalized(dst, o) + share(now, r, dst, o) < 1 + CONFIG.lambda() + EPS;
                case BELOW_SOURCE -> now.normalized(dst, d) + share(now, r, dst, d) < now.deviation(src) + 1 + EPS
                        && now.normalized(dst, o) + share(now, r, dst, o) < now.deviation(src) + 1 + EPS;
                case PAIR_PEAK -> pairPeakLowered(now, r, src, dst);
                case BENEFIT_THRESHOLD -> share(now, r, src, score, d) > CONFIG.benefitThreshold() - EPS;
                default -> false;
            };
            assertThat(held).as("%s on %s: %s", c, m, why.note()).isTrue();
            readsTrue(why.note());
            assertThat(why.note()).contains(c.name().toLowerCase().replace('_', ' '));
        }
        if (score == null) {
            assertThat(now.normalized(src, d)).as("the critical load the note states").isGreaterThan(1 - EPS);
        }
    }

    /**
     * The higher peak of the two nodes comes down by more than the benefit threshold, and the
     * destination's ends within 1 + λ or λ below the source's.
     */
    private static boolean pairPeakLowered(LoadModel now, RegionLoad r, int src, int dst) {
        double srcBefore = peak(now, src, r, 0, 0);
        double before = Math.max(srcBefore, peak(now, dst, r, 0, 0));
        double dstAfter = peak(now, dst, r, 1, dst);
        double after = Math.max(peak(now, src, r, -1, src), dstAfter);
        return after < before - CONFIG.benefitThreshold() + EPS
                && dstAfter < Math.max(1 + CONFIG.lambda(), srcBefore - CONFIG.lambda()) + EPS;
    }

    /** Node j's larger normalised load, with region r's share on node {@code on} added {@code sign} times. */
    private static double peak(LoadModel now, int j, RegionLoad r, int sign, int on) {
        return Math.max(now.normalized(j, Dimension.CPU) + sign * share(now, r, on, Dimension.CPU),
                now.normalized(j, Dimension.DISK) + sign * share(now, r, on, Dimension.DISK));
    }

    private static void checkNoNewPeak(LoadModel now, MoveAction m) {
        int src = now.nodeIndex(m.from());
        int dst = now.nodeIndex(m.to());
        Dimension d = m.reason().criticalDimension();
        Dimension o = d.other();
        double after = now.normalized(dst, o) + share(now, region(now, m.region()), dst, o);
        assertThat(after).as("%s: %s after the move, against the peak it relieves", m, o)
                .isLessThanOrEqualTo(Math.max(1 + CONFIG.lambda(), now.normalized(src, d)) + EPS);
    }

    private static void checkSplit(LoadModel now, SplitAction sp) {
        RegionLoad r = region(now, sp.region());
        int j = now.nodeIndex(r.node());
        assertThat(sp.reason().passed()).containsExactly(Constraint.SPLIT_BOUND);
        assertThat(Math.max(share(now, r, j, Dimension.CPU), share(now, r, j, Dimension.DISK)))
                .as(sp.reason().note()).isGreaterThan(CONFIG.splitBound() - EPS);
        assertThat(sp.reason().note()).contains("split bound");
        readsTrue(sp.reason().note());
    }

    /** Every comparison the note states reads true with the numbers as printed: rounding never makes a test that held look false. */
    private static void readsTrue(String note) {
        Matcher m = RELATION.matcher(note);
        int found = 0;
        while (m.find()) {
            int c = Double.compare(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3)));
            boolean reads = switch (m.group(2)) {
                case "<" -> c < 0;
                case ">" -> c > 0;
                case ">=" -> c >= 0;
                default -> c <= 0;
            };
            assertThat(reads).as("\"%s\" in %s", m.group(), note).isTrue();
            found++;
        }
        assertThat(found).as("the note states its comparisons: %s", note).isPositive();
        Matcher above = ABOVE_ONE.matcher(note);
        while (above.find()) {
            assertThat(Double.parseDouble(above.group(1))).as("\"%s\" in %s", above.group(), note).isGreaterThan(1);
        }
    }

    private static RegionLoad region(LoadModel m, String id) {
        return m.regions().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
    }

    /**
     * What region r adds to node j's load in d, over j's target, when j leads it: its own load (CPU
     * at j's speed) less the replica writes j applies for it while it is led elsewhere.
     */
    private static double share(LoadModel m, RegionLoad r, int j, Dimension d) {
        double t = m.target(j, d);
        double own = d == Dimension.CPU ? m.cpuOn(r, j) : r.disk();
        return t > 0 ? (own - m.replicaAt(r, d, j)) / t : 0;
    }

    private static double share(LoadModel m, RegionLoad r, int j, double[] score, Dimension d) {
        return score == null ? share(m, r, j, d)
                : score[0] * share(m, r, j, Dimension.CPU) + score[1] * share(m, r, j, Dimension.DISK);
    }

    private static double score(LoadModel m, int j, double[] score, Dimension d) {
        return score == null ? m.normalized(j, d)
                : score[0] * m.normalized(j, Dimension.CPU) + score[1] * m.normalized(j, Dimension.DISK);
    }
}
