package io.libra.core;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.Estimator;
import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A plan that holds under either of two models the window cannot tell apart. Node totals judge a
 * model only on the layout they were measured in; a plan moves regions into layouts no window
 * showed, where a linear disk model and a block cache that fit the window equally well can
 * disagree by more than the imbalance being fixed (`cache-skew`: the linear model's first plan
 * forecast 1.05 and left disk at 1.18-1.28). Likewise a node whose CPU strays from the cost
 * model, in windows that never tested whether the residual stays with the node: shared among its
 * regions it rides with them when they move, as a speed of the node's own it stays and prices
 * every region moved there. So where a rival model exists, the strategy plans on
 * each, each plan is carried out in memory on the other model as well, and the plan kept is the
 * one that falls least behind the other under either model (least regret): a plan is not given up
 * because one model thinks nothing helps while the other sees a large gain (a cache fitted where
 * every region hits alike says any move spoils the caches, 500 servers in `LargeClusterGuardTest`).
 * Where the two read the same residuals two ways (a node's speed, or its regions' cost), a third
 * plan is made on a model halfway between (each such node running at the square root of its
 * residual ratio, {@link Estimator.Rival#between}): when neither reading holds, it can fall
 * less far behind under both (`node-speed`, hotspot-shift seed 8: 1.23 true CPU Max/Mean after
 * the first plan kept from the two, 1.09 with the third).
 * It is kept with the assessment on the model it was made on (its forecast and the checks after it
 * are that model's). Its reason says so.
 */
public final class RivalModels {
    /** Δs this close are the same (float rounding between two runs that found equally good plans). */
    private static final double SAME = 1e-9;
    /** The third plan's model, where the rival offers one ({@link Estimator.Rival#between}). */
    private static final String HALFWAY = "model halfway between the two";

    private RivalModels() {
    }

    /** A strategy's outcome and the assessment whose model it was planned on. */
    public record Choice(StrategyOutcome outcome, Assessment assessment) {
    }

    static Choice choose(Strategy strategy, Assessment a, PlanningContext context, PlanApplier applier) {
        StrategyOutcome mine = strategy.outcome(a.model(), context);
        if (a.rival().isEmpty()) {
            return new Choice(mine, a);
        }
        Estimator.Rival rival = a.rival().get();
        LoadModel[] models = {a.model(), rival.model()};
        List<double[]> delta = new ArrayList<>();
        delta.add(onEach(strategy, mine, 0, models, applier));
        // the plans made on the rival and on the model between, each asked of the rule at the window's layout
        List<LoadModel> madeOn = new ArrayList<>(List.of(a.model(), rival.model()));
        rival.between().ifPresent(madeOn::add);
        List<StrategyOutcome> plans = new ArrayList<>(List.of(mine));
        for (int p = 1; p < madeOn.size(); p++) {
            plans.add(strategy.outcome(madeOn.get(p), context.withOwnLoad(rival.ownLoad())));
            delta.add(onEach(strategy, plans.get(p), p < models.length ? p : -1, models, applier));
        }
        double[] regret = new double[plans.size()];
        int kept = 0;
        for (int p = 0; p < plans.size(); p++) {
            regret[p] = regret(delta, p);
            kept = regret[p] < regret[kept] - SAME ? p : kept;
        }
        if (Arrays.stream(regret).max().orElse(0) <= SAME) {
            return new Choice(mine, a); // the plans do as well under either: the rival changed nothing
        }
        Plan p = plans.get(kept).plan();
        String why = reason(rival, kept, delta, regret);
        StrategyOutcome said = new StrategyOutcome(p.withActions(p.actions(), p.detail().isEmpty() ? why
                : p.detail() + "; " + why), plans.get(kept).predicted());
        return new Choice(said, kept == 0 ? a : a.onRival(madeOn.get(kept)));
    }

    /** Δ of {@code o}'s plan under each model; {@code own} is the model it was made on (its predicted state), or -1. */
    private static double[] onEach(Strategy strategy, StrategyOutcome o, int own, LoadModel[] models, PlanApplier applier) {
        double[] out = new double[models.length];
        for (int m = 0; m < models.length; m++) {
            out[m] = degree(m == own ? o.predicted() : strategy.carriedOut(models[m], o.plan(), applier::apply));
        }
        return out;
    }

    /** Says which plan was kept, its Δ under either model, and the same of the next best plan. */
    private static String reason(Estimator.Rival rival, int kept, List<double[]> delta, double[] regret) {
        int other = -1;
        for (int p = 0; p < regret.length; p++) {
            other = p != kept && (other < 0 || regret[p] < regret[other]) ? p : other;
        }
        return String.format(Locale.ROOT, "the window does not tell the %s from a %s; kept the plan made"
                + " on the %s: Δ %.3f under the %s and %.3f under the %s (the plan on the %s %.3f and %.3f),"
                + " at most %.3f behind the better plan under either (the other %.3f)", rival.subject(), rival.describe(),
                madeOn(rival, kept), delta.get(kept)[0], rival.ours(), delta.get(kept)[1], rival.theirs(),
                madeOn(rival, other), delta.get(other)[0], delta.get(other)[1], regret[kept], regret[other]);
    }

    private static String madeOn(Estimator.Rival rival, int plan) {
        return plan == 0 ? rival.ours() : plan == 1 ? rival.theirs() : HALFWAY;
    }

    /** How far plan {@code p}'s Δ falls behind the best plan's, under the model where it falls furthest. */
    private static double regret(List<double[]> delta, int p) {
        double most = 0;
        for (int m = 0; m < delta.get(p).length; m++) {
            double best = Double.POSITIVE_INFINITY;
            for (double[] d : delta) {
                best = Math.min(best, d[m]);
            }
            most = Math.max(most, delta.get(p)[m] - best);
        }
        return most;
    }

    private static double degree(LoadModel m) {
        return m.balance().imbalanceDegree();
    }
}
