package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.assertj.core.data.Offset;

/**
 * Every ring reason is produced by the conditions it names: each plan's actions are replayed on
 * the independent applier (segments cut at the new tokens), loads are recomputed by the plain arc
 * oracle, and each named constraint is re-checked there from the paper's formulas, with the
 * numbers its clause states.
 */
class RingReasonsStateWhatHeldTest {
    private static final double EPS = 1e-6;
    /** Numbers are stated with three decimals, or more where a comparison needs them. */
    private static final double STATED = 0.0005 + EPS;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+\\.\\d+");

    record Case(RingLoad ring, RingPlannerConfig config) {
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<List<Double>> loads = Arbitraries.doubles().between(0, 10).list().ofSize(32);
        Arbitrary<List<Integer>> at = Arbitraries.integers().between(0, 15).set().ofMinSize(2).ofMaxSize(6)
                .map(s -> s.stream().sorted().toList());
        Arbitrary<Integer> rf = Arbitraries.integers().between(1, 3);
        Arbitrary<Double> lambda = Arbitraries.of(0.02, 0.05, 0.1);
        Arbitrary<Integer> slices = Arbitraries.integers().between(1, 4);
        return Combinators.combine(loads, at, rf, lambda, slices).as((l, a, r, lam, k) -> {
            double[] cpu = new double[16];
            double[] disk = new double[16];
            for (int i = 0; i < 16; i++) {
                cpu[i] = l.get(i);
                disk[i] = l.get(16 + i);
            }
            RingLoad ring = RingPlannerTest.ring(a.stream().mapToInt(Integer::intValue).toArray(), cpu, disk, r);
            return new Case(ring, new RingPlannerConfig(lam, 4, 0, k, 0.001));
        });
    }

    @Property(tries = 200)
    void everyNamedConstraintHeldWithTheNumbersItStates(@ForAll("cases") Case c) {
        List<MoveTokenAction> actions = new ArrayList<>();
        new RingPlanner(c.config()).plan(c.ring()).toPlan().actions().forEach(a -> actions.add((MoveTokenAction) a));
        for (int i = 0; i < actions.size(); i++) {
            RingLoad now = RingApplier.apply(c.ring(), actions.subList(0, i)).after();
            RingLoad next = RingApplier.apply(now, List.of(actions.get(i))).after();
            check(c.config(), new State(now), new State(next), actions.get(i).reason());
        }
    }

    /** Each node's normalised loads and deviation by the arc oracle, targets the mean (capacities are 1). */
    record State(Map<String, double[]> normalised) {
        State(RingLoad ring) {
            this(normalise(ArcReference.loads(ring.nodes(), ring.segments())));
        }

        /** From each node's absolute {cpu, disk} (by any oracle), normalised to the mean. */
        static State of(Map<String, double[]> loads) {
            return new State(normalise(loads));
        }

        /** The same, each node normalised to the mean of its pool (the nodes {@code poolOf} names alike). */
        static State of(Map<String, double[]> loads, java.util.function.Function<String, String> poolOf) {
            Map<String, double[]> out = new java.util.TreeMap<>();
            loads.keySet().stream().collect(java.util.stream.Collectors.groupingBy(poolOf)).values().forEach(ids -> {
                Map<String, double[]> pool = new java.util.TreeMap<>();
                ids.forEach(id -> pool.put(id, loads.get(id)));
                out.putAll(normalise(pool));
            });
            return new State(out);
        }

        private static Map<String, double[]> normalise(Map<String, double[]> loads) {
            double[] mean = new double[2];
            loads.values().forEach(l -> {
                mean[0] += l[0] / loads.size();
                mean[1] += l[1] / loads.size();
            });
            loads.replaceAll((id, l) -> new double[] {mean[0] > 0 ? l[0] / mean[0] : 1, mean[1] > 0 ? l[1] / mean[1] : 1});
            return loads;
        }

        double of(String node, Dimension d) {
            return normalised.get(node)[d == Dimension.CPU ? 0 : 1];
        }

        double deviation(String node) {
            return Math.max(of(node, Dimension.CPU), of(node, Dimension.DISK)) - 1;
        }

        double delta() {
            return normalised.keySet().stream().mapToDouble(this::deviation).max().orElseThrow();
        }
    }

    static void check(RingPlannerConfig config, State before, State after, Reason why) {
        String src = why.source().node();
        String dst = why.destination().node();
        assertThat(why.source().before()).isCloseTo(before.deviation(src), Offset.offset(EPS));
        assertThat(why.source().after()).isCloseTo(after.deviation(src), Offset.offset(EPS));
        assertThat(why.destination().before()).isCloseTo(before.deviation(dst), Offset.offset(EPS));
        assertThat(why.destination().after()).isCloseTo(after.deviation(dst), Offset.offset(EPS));
        Dimension d = why.criticalDimension();
        Dimension o = d.other();
        String[] clauses = why.note().split("; ");
        String critical = clauses[0].substring(0, clauses[0].indexOf(' '));
        assertThat(before.deviation(critical)).as(why.note()).isCloseTo(before.delta(), Offset.offset(EPS));
        assertThat(before.of(critical, d)).as(why.note()).isCloseTo(before.deviation(critical) + 1, Offset.offset(EPS));
        states(numbers(clauses[0]), before.of(critical, d));
        String change = java.util.Arrays.stream(clauses).filter(x -> x.startsWith("Δ ")).findFirst().orElseThrow();
        states(numbers(change), before.delta(), after.delta());
        assertThat(after.delta()).as("no move raises Δ: %s", why.note()).isLessThanOrEqualTo(before.delta() + EPS);
        for (Constraint k : why.passed()) {
            List<Double> n = stated(why.note(), k);
            switch (k) {
                case BENEFIT_THRESHOLD -> {
                    assertThat(before.delta() - after.delta()).isGreaterThanOrEqualTo(config.minImprovement() - EPS);
                    states(n, before.delta(), after.delta(), before.delta() - after.delta(), config.minImprovement());
                }
                case LOAD_CONSTRAINT -> {
                    assertThat(after.of(dst, d)).as(why.note()).isLessThan(1 + config.lambda() + EPS);
                    states(n, before.of(dst, d), after.of(dst, d) - before.of(dst, d), after.of(dst, d),
                            1 + config.lambda());
                }
                case INTERFERENCE_CONSTRAINT -> {
                    double so = before.of(src, o) - after.of(src, o);
                    double sd = before.of(src, d) - after.of(src, d);
                    double to = after.of(dst, o) - before.of(dst, o);
                    double td = after.of(dst, d) - before.of(dst, d);
                    assertThat(so).as(why.note()).isLessThan(sd + EPS);
                    assertThat(to).as(why.note()).isLessThan(td + EPS);
                    states(n, so, sd, to, td);
                }
                case SHARED_RELIEF -> {
                    assertThat(before.of(src, o)).as(why.note()).isGreaterThan(1 - EPS);
                    assertThat(after.of(dst, o)).as(why.note()).isLessThan(1 + config.lambda() + EPS);
                    states(n, before.of(src, o), before.of(dst, o), after.of(dst, o) - before.of(dst, o),
                            after.of(dst, o), 1 + config.lambda());
                }
                default -> throw new AssertionError("a ring reason names " + k + ": " + why.note());
            }
        }
    }

    /** The decimals of the clause that names {@code k} (up to the next "; "). */
    private static List<Double> stated(String note, Constraint k) {
        String name = k.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ":";
        int at = note.indexOf(name);
        assertThat(at).as("%s names %s", note, name).isGreaterThanOrEqualTo(0);
        int end = note.indexOf("; ", at);
        return numbers(end < 0 ? note.substring(at) : note.substring(at, end));
    }

    private static List<Double> numbers(String clause) {
        Matcher m = NUMBER.matcher(clause);
        List<Double> out = new ArrayList<>();
        while (m.find()) {
            out.add(Double.parseDouble(m.group()));
        }
        return out;
    }

    private static void states(List<Double> stated, double... actual) {
        assertThat(stated).hasSize(actual.length);
        for (int i = 0; i < actual.length; i++) {
            assertThat(stated.get(i)).isCloseTo(actual[i], Offset.offset(STATED));
        }
    }
}
