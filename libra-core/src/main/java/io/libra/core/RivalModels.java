package io.libra.core;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.Estimator;
import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.Plan;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
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
 * It is kept with the assessment on the model it was made on (its forecast and the checks after it
 * are that model's). Its reason says so.
 */
public final class RivalModels {
    /** Δs this close are the same (float rounding between two runs that found equally good plans). */
    private static final double SAME = 1e-9;

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
        LoadModel mineOnRival;
        try {
            mineOnRival = applier.apply(rival.model(), mine.plan());
        } catch (InvalidPlanException e) {
            return new Choice(mine, a); // a ring's token moves: no region layout to weigh them on
        }
        StrategyOutcome theirs = strategy.outcome(rival.model(), context.withFreshPlacement());
        // Δ of each plan under each model: [plan][model], plan and model 0 the one in use, 1 the rival
        double[][] delta = {
            {degree(mine.predicted()), degree(mineOnRival)},
            {degree(applier.apply(a.model(), theirs.plan())), degree(theirs.predicted())}};
        double[] regret = {regret(delta, 0), regret(delta, 1)};
        if (Math.max(regret[0], regret[1]) <= SAME) {
            return new Choice(mine, a); // the two plans do as well under either: the rival changed nothing
        }
        boolean theirsKept = regret[1] < regret[0];
        StrategyOutcome kept = theirsKept ? theirs : mine;
        String why = reason(rival, theirsKept, delta, regret);
        Plan p = kept.plan();
        StrategyOutcome said = new StrategyOutcome(p.withActions(p.actions(), p.detail().isEmpty() ? why
                : p.detail() + "; " + why), kept.predicted());
        return new Choice(said, theirsKept ? a.onRival(rival.model()) : a);
    }

    private static String reason(Estimator.Rival rival, boolean theirsKept, double[][] delta, double[] regret) {
        int k = theirsKept ? 1 : 0;
        return String.format(Locale.ROOT, "the window does not tell the %s from a %s; kept the plan made"
                + " on the %s: Δ %.3f under the %s and %.3f under the %s (the other plan %.3f and %.3f),"
                + " at most %.3f behind the better plan under either (the other %.3f)", rival.subject(), rival.describe(),
                theirsKept ? rival.theirs() : rival.ours(), delta[k][0], rival.ours(), delta[k][1], rival.theirs(),
                delta[1 - k][0], delta[1 - k][1], regret[k], regret[1 - k]);
    }

    /** How far plan {@code p}'s Δ falls behind the better plan's, under the model where it falls furthest. */
    private static double regret(double[][] delta, int p) {
        double most = 0;
        for (int m = 0; m < 2; m++) {
            most = Math.max(most, delta[p][m] - Math.min(delta[0][m], delta[1][m]));
        }
        return most;
    }

    private static double degree(LoadModel m) {
        return m.balance().imbalanceDegree();
    }
}
