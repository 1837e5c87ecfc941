package io.libra.core.schedule;

/**
 * Scheduling parameters, named as in the paper.
 *
 * @param lambda             λ: the largest acceptable deviation from the mean (0.05)
 * @param benefitThreshold   a region must carry more than this normalised load to be moved (1/500)
 * @param maxActions         cap on actions in one plan; 0 means no cap
 * @param splitting          whether load-based splitting (§IV-B) may be used
 * @param lazy               whether lazy scheduling (§IV-C) batches candidates and drops redundant actions
 * @param mergeColdBelow     adjacent regions whose combined normalised load in both dimensions stays below
 *                           this are proposed for merging; 0 disables merging
 * @param cpuWeight          2d-wtd only: weight of CPU in the weighted score (disk gets 1 − w)
 * @param flowError          the forecast error a node is expected to gain per unit of normalised load moved through
 *                           it (in or out), learnt from the forecast checks ({@code plan.FlowError}); a run keeps the
 *                           prefix whose Δ, each node raised by that error, is lowest. 0 (the paper) weighs Δ alone
 * @param landing            the cooperative scheduler stops once Δ is within this rather than λ, where it is higher
 *                           ({@link #stopAt}): a plan after the first lands inside the hysteresis band
 *                           ({@code io.libra.core.Landing}). 0 (the paper) plans to λ
 */
public record SchedulerConfig(double lambda, double benefitThreshold, int maxActions, boolean splitting,
                              boolean lazy, double mergeColdBelow, double cpuWeight, double flowError, double landing) {
    public static final SchedulerConfig DEFAULT = new SchedulerConfig(0.05, 1.0 / 500, 0, true, true, 0.0, 0.5);

    /** Without a flow error or a landing: Δ alone decides what a run keeps, and it runs down to λ. */
    public SchedulerConfig(double lambda, double benefitThreshold, int maxActions, boolean splitting, boolean lazy,
                           double mergeColdBelow, double cpuWeight) {
        this(lambda, benefitThreshold, maxActions, splitting, lazy, mergeColdBelow, cpuWeight, 0, 0);
    }

    public SchedulerConfig {
        if (!(lambda > 0 && lambda < 10)) {
            throw new IllegalArgumentException("lambda: must be in (0, 10), got " + lambda);
        }
        if (!(benefitThreshold >= 0 && benefitThreshold < 1)) {
            throw new IllegalArgumentException("benefitThreshold: must be in [0, 1), got " + benefitThreshold);
        }
        if (maxActions < 0) {
            throw new IllegalArgumentException("maxActions: must be >= 0, got " + maxActions);
        }
        if (!(mergeColdBelow >= 0 && mergeColdBelow < 1)) {
            throw new IllegalArgumentException("mergeColdBelow: must be in [0, 1), got " + mergeColdBelow);
        }
        if (!(cpuWeight >= 0 && cpuWeight <= 1)) {
            throw new IllegalArgumentException("cpuWeight: must be in [0, 1], got " + cpuWeight);
        }
        if (!(flowError >= 0 && flowError < 1)) {
            throw new IllegalArgumentException("flowError: must be in [0, 1), got " + flowError);
        }
        if (!(landing >= 0 && landing < 10)) {
            throw new IllegalArgumentException("landing: must be in [0, 10), got " + landing);
        }
    }

    /**
     * Whether a check of the last plan's forecast found its error below λ: the {@link #landing} is
     * set above λ only then ({@code Landing.of}).
     */
    public boolean forecastChecked() {
        return landing > lambda;
    }

    /** The Δ a run stops at: λ, or the landing when that is higher. */
    public double stopAt() {
        return Math.max(lambda, landing);
    }

    /** Theorem 1's bound: regions above λ/2 in either dimension are split candidates. */
    public double splitBound() {
        return lambda / 2;
    }

    public SchedulerConfig withLambda(double l) {
        return new SchedulerConfig(l, benefitThreshold, maxActions, splitting, lazy, mergeColdBelow, cpuWeight, flowError, landing);
    }

    public SchedulerConfig withMaxActions(int n) {
        return new SchedulerConfig(lambda, benefitThreshold, n, splitting, lazy, mergeColdBelow, cpuWeight, flowError, landing);
    }

    public SchedulerConfig withSplitting(boolean on) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, on, lazy, mergeColdBelow, cpuWeight, flowError, landing);
    }

    public SchedulerConfig withLazy(boolean on) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, splitting, on, mergeColdBelow, cpuWeight, flowError, landing);
    }

    public SchedulerConfig withMergeColdBelow(double x) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, splitting, lazy, x, cpuWeight, flowError, landing);
    }

    public SchedulerConfig withFlowError(double e) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, splitting, lazy, mergeColdBelow, cpuWeight, e, landing);
    }

    public SchedulerConfig withLanding(double x) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, splitting, lazy, mergeColdBelow, cpuWeight, flowError, x);
    }

    public SchedulerConfig withCpuWeight(double w) {
        return new SchedulerConfig(lambda, benefitThreshold, maxActions, splitting, lazy, mergeColdBelow, w, flowError, landing);
    }
}
