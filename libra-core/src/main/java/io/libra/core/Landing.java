package io.libra.core;

import io.libra.core.estimate.PredictionCheck;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a plan after the first stops: inside the hysteresis band ({@link Hysteresis}, 2λ), short of
 * it by the last forecast's measured error, rather than at λ. The band holds a cluster anywhere
 * below 2λ, so the moves that take Δ from there down to λ buy nothing the next window can keep:
 * Δ is a maximum over nodes, its noise and the forecast's error lift it back above λ, and under
 * node-speed those moves were most of the data moved after the third window (byte-cpu seed 6:
 * 172 moves to take a measured 0.151 to 0.051, then 51 and 107 more for the same hundredths). A
 * first plan has no measured error and plans to λ as the paper does (Theorem 1).
 */
final class Landing {
    private Landing() {
    }

    /** 2λ less the checked forecast's error, when that is above λ; 0 (plan to λ) without a check. */
    static double of(SchedulerConfig config, Optional<PredictionCheck> check) {
        double e = check.map(PredictionCheck::error).orElse(Double.NaN);
        double landing = Hysteresis.RESUME_MULTIPLE * config.lambda() - e;
        return Double.isFinite(landing) && landing > config.lambda() ? landing : 0;
    }

    /** The plan, a cooperative one's detail saying it stopped at the landing rather than λ when it did. */
    static Plan explain(Plan plan, SchedulerConfig config) {
        if (config.landing() <= config.lambda() || !Strategies.LIBRA.equals(plan.strategy())
                || plan.status() != PlanStatus.PLANNED || plan.actions().isEmpty() || plan.isRevert()) {
            return plan;
        }
        String line = String.format(Locale.ROOT, "planned down to Δ ≤ %.3f, not λ: %.0fλ, where the hysteresis holds"
                + " the cluster, less the last forecast's error %.1f%%", config.landing(), Hysteresis.RESUME_MULTIPLE,
                100 * (Hysteresis.RESUME_MULTIPLE * config.lambda() - config.landing()));
        String detail = plan.detail() == null || plan.detail().isEmpty() ? line : plan.detail() + "; " + line;
        return plan.withActions(plan.actions(), detail);
    }
}
