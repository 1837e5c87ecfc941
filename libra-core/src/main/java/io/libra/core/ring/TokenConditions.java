package io.libra.core.ring;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;
import io.libra.core.schedule.ActionCondition;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The §III-B conditions as a token move meets them, each an object that checks the move against
 * the ring and states the numbers it compared (the region scheduler's {@link ActionCondition}
 * shape, with the moved range in place of a region). A move's reason names only the ones that held.
 */
final class TokenConditions {
    private TokenConditions() {
    }

    /** One condition: its test and the clause stating that test with its numbers. */
    record Condition(Constraint constraint, Predicate<TokenCandidate> test, Function<TokenCandidate, String> clause)
            implements ActionCondition<TokenCandidate> {
        @Override
        public boolean holds(TokenCandidate c) {
            return test.test(c);
        }

        @Override
        public String explain(TokenCandidate c) {
            return clause.apply(c);
        }
    }

    /** All the conditions a ring plan checks, in the order a reason states them. */
    static List<ActionCondition<TokenCandidate>> of(RingPlannerConfig config) {
        return List.of(benefit(config.minImprovement()), load(config.lambda()), interference(),
                sharedRelief(config.lambda()));
    }

    static String num(double x) {
        return String.format(Locale.ROOT, "%.3f", x);
    }

    /** Benefit threshold: the move lowers Δ by at least the configured gain, so it is worth its streaming. */
    static Condition benefit(double minImprovement) {
        return new Condition(Constraint.BENEFIT_THRESHOLD, c -> c.deltaBefore() - c.deltaAfter() >= minImprovement,
                c -> "benefit threshold: Δ " + num(c.deltaBefore()) + " -> " + num(c.deltaAfter()) + " falls by "
                        + num(c.deltaBefore() - c.deltaAfter()) + " >= " + num(minImprovement));
    }

    /** Load constraint (A′_dst + α′ &lt; 1 + λ): the node that takes the range stays within 1 + λ in the critical dimension. */
    static Condition load(double lambda) {
        return new Condition(Constraint.LOAD_CONSTRAINT,
                c -> c.normalisedAfter(c.destination(), c.criticalDimension()) < 1 + lambda,
                c -> {
                    int d = c.destination();
                    Dimension dim = c.criticalDimension();
                    return "load constraint: " + c.id(d) + " " + dim.label() + " " + num(c.normalisedBefore(d, dim))
                            + " + " + num(c.share(d, dim)) + " < 1+λ " + num(1 + lambda);
                });
    }

    /**
     * Interference constraint (β′ &lt; α′): the moved range weighs less in the other dimension than in
     * the critical one, where it leaves and where it lands.
     */
    static Condition interference() {
        return new Condition(Constraint.INTERFERENCE_CONSTRAINT,
                c -> lighter(c, c.source(), -1) && lighter(c, c.destination(), 1),
                c -> {
                    Dimension d = c.criticalDimension();
                    int s = c.source();
                    int t = c.destination();
                    return "interference constraint: the range " + d.other().label() + " " + num(-c.share(s, d.other()))
                            + " < " + d.label() + " " + num(-c.share(s, d)) + " at " + c.id(s) + " and "
                            + d.other().label() + " " + num(c.share(t, d.other())) + " < " + d.label() + " "
                            + num(c.share(t, d)) + " at " + c.id(t);
                });
    }

    private static boolean lighter(TokenCandidate c, int j, int sign) {
        Dimension d = c.criticalDimension();
        return sign * c.share(j, d.other()) < sign * c.share(j, d);
    }

    /**
     * In place of interference: the source is above its target in the other dimension too, and the
     * destination stays within 1 + λ there, so carrying both loads helps.
     */
    static Condition sharedRelief(double lambda) {
        return new Condition(Constraint.SHARED_RELIEF,
                c -> {
                    Dimension o = c.criticalDimension().other();
                    return c.normalisedBefore(c.source(), o) > 1 && c.normalisedAfter(c.destination(), o) < 1 + lambda;
                },
                c -> {
                    Dimension o = c.criticalDimension().other();
                    int s = c.source();
                    int t = c.destination();
                    return "shared relief: " + c.id(s) + " " + o.label() + " " + num(c.normalisedBefore(s, o))
                            + " > 1 and " + c.id(t) + " " + o.label() + " " + num(c.normalisedBefore(t, o)) + " + "
                            + num(c.share(t, o)) + " < 1+λ " + num(1 + lambda);
                });
    }
}
