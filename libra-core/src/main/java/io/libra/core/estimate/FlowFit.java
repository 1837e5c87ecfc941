package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.Plan;
import java.util.Locale;
import java.util.Optional;

/**
 * How much a node's forecast error grows with the load moved through it, learnt from the last
 * check. The model refitted on this window replays the previous plan's moves ({@link Hindcast});
 * each node's replay error in each dimension, as a share of its target, is fitted as
 * {@code floor + rate · g} over the node's gross flow g ({@link GrossFlow}), both non-negative.
 * The floor is the window's noise, which every layout has alike; the rate is what each unit of
 * traded load adds, which only a plan that moves less avoids. The refitted model, not the one the
 * plan was made on, because its error on those moves is what the next plan's moves will have.
 * One check of a few nodes tells the rate roughly, and a small plan hardly at all, so each
 * check's fit is pooled with the earlier ones' ({@link FlowError#pooledWith}), weighted by the
 * spread of the flows each saw.
 *
 * @param rate   forecast error per unit of normalised gross flow
 * @param floor  the error of a node no move touched
 * @param weight the spread of the flows the fit saw, Σ(g − ḡ)²
 * @param nodes  how many nodes the fit used
 */
public record FlowFit(double rate, double floor, double weight, int nodes) {
    /** Fewer nodes than this tell a slope from noise no better than a guess. */
    static final int MIN_NODES = 4;
    /**
     * The most a check may say: the prior's rate. A replay that errs by more per unit of flow is of a
     * model still learning (the first checks, before the moves have shown the nodes' speeds), whose
     * error the next windows' refits remove; taken at its word it held back the moves that would
     * have finished the balance (`libra loop --truth node-speed`: 15 more of 468 runs ended above
     * 1.10 with the rate capped at 0.5, 9 at 0.2, 2 at 0.1).
     */
    static final double MAX_RATE = 0.1;
    /**
     * The fit is of mean absolute errors; Δ is the largest node's deviation, which meets the upper
     * tail of each node's error: about twice its mean absolute value for the few nodes near the peak.
     */
    static final double TAIL = 2;
    /**
     * The flow error before any check has measured one: a node whose whole target's load passed
     * through it, in and out, is 10% off, with the weight of a check that saw flows spread by 0.2.
     */
    public static final FlowError PRIOR = new FlowError(MAX_RATE, 0.2);

    /** How much of an earlier check's weight is left a window later: the workload and the model drift. */
    public static final double DECAY = 0.5;

    /** This check's fit as the flow error to carry: pooled with {@code earlier} (may be null). */
    public FlowError pooled(FlowError earlier) {
        FlowError now = new FlowError(rate, weight);
        return earlier == null ? now : now.pooledWith(earlier, DECAY);
    }

    /**
     * The fit on the previous plan's moves as {@code replayed} carries them out, against what the
     * nodes measure {@code now}; empty when fewer than {@value #MIN_NODES} nodes had load pass
     * through them, or the plan moved nothing.
     */
    public static Optional<FlowFit> learn(Plan previous, LoadModel replayed, ClusterSnapshot now) {
        if (previous == null || previous.actions().isEmpty()) {
            return Optional.empty();
        }
        GrossFlow g = GrossFlow.of(replayed, replayed, previous.actions());
        Sums s = new Sums();
        int touched = 0;
        int used = 0;
        for (int j = 0; j < replayed.nodeCount(); j++) {
            Optional<Node> n = now.node(replayed.nodes().get(j).id());
            if (n.isEmpty()) {
                continue;
            }
            used++;
            boolean any = false;
            for (Dimension d : Dimension.values()) {
                double target = replayed.target(j, d);
                if (target > 0) {
                    double measured = d == Dimension.CPU ? n.get().cpuUsage() : n.get().diskBytesPerSec();
                    s.add(g.through(j, d), Math.abs(measured - replayed.load(j, d)) / target);
                    any |= g.through(j, d) > 0;
                }
            }
            touched += any ? 1 : 0;
        }
        return touched < MIN_NODES ? Optional.empty() : Optional.of(s.fit(used));
    }

    /** One line for the plan's estimation detail. */
    public String describe() {
        return String.format(Locale.ROOT, "the last moves' replay errs by %.3f more per unit of load moved through a node"
                + " (%.1f%% on a node none touched, %d nodes)", rate, 100 * floor, nodes);
    }

    /** Least squares of error on flow with a non-negative intercept and slope. */
    private static final class Sums {
        private double n;
        private double sx;
        private double sy;
        private double sxx;
        private double sxy;

        void add(double x, double y) {
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }

        FlowFit fit(int nodes) {
            double var = n * sxx - sx * sx;
            double slope = var > 0 ? (n * sxy - sx * sy) / var : 0;
            double floor = (sy - slope * sx) / n;
            if (floor < 0) {
                floor = 0;
                slope = sxx > 0 ? sxy / sxx : 0; // through the origin
            }
            if (slope < 0) {
                slope = 0;
                floor = sy / n;
            }
            return new FlowFit(Math.min(TAIL * slope, MAX_RATE), floor, Math.max(0, sxx - sx * sx / n), nodes);
        }
    }
}
