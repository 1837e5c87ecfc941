package io.libra.core;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Planner meters: Δ and Max/Mean per dimension of the last planned state, the cost model's
 * held-out error and the last forecast error, actions planned, moves planned to take back moves
 * measured to leave Δ worse ({@link Revert}), plans that took a {@link MeasuredStep}, plan time.
 * Registered only when a registry is given. A gauge appears with its first real value, so a scrape never shows NaN
 * (before the first plan, or before a forecast could be checked).
 */
final class PlannerMetrics {
    private final MeterRegistry registry;
    private final String strategy;
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Counter actions;
    private final Counter takenBack;
    private final Counter steps;
    private final Timer planTime;

    PlannerMetrics(MeterRegistry registry, String strategy) {
        this.registry = registry;
        this.strategy = strategy;
        if (registry == null) {
            actions = null;
            takenBack = null;
            steps = null;
            planTime = null;
            return;
        }
        actions = Counter.builder("libra.actions.planned").description("actions in plans made")
                .tag("strategy", strategy).register(registry);
        takenBack = Counter.builder("libra.moves.taken.back")
                .description("moves planned to take back the last plan's, measured to leave the imbalance worse")
                .tag("strategy", strategy).register(registry);
        steps = Counter.builder("libra.measured.steps")
                .description("plans that took a measured step: a few actions at the operator's λ out of a hold past 2λ"
                        + " that a carried forecast miss kept")
                .tag("strategy", strategy).register(registry);
        planTime = Timer.builder("libra.plan.time").description("time to make a plan")
                .tag("strategy", strategy).register(registry);
    }

    void record(PlanResult result) {
        if (registry == null) {
            return;
        }
        actions.increment(result.plan().actions().size());
        steps.increment(result.measuredStep() && !result.plan().actions().isEmpty() ? 1 : 0);
        takenBack.increment(result.plan().isRevert() ? result.plan().actions().size() : 0);
        planTime.record(result.planTime());
        set("libra.imbalance.degree", "Δ: largest node deviation from the mean (eq. 4)",
                result.before().balance().imbalanceDegree());
        set("libra.cpu.max.over.mean", "Max/Mean of node CPU load", result.before().balance().cpuMaxOverMean());
        set("libra.disk.max.over.mean", "Max/Mean of node disk load", result.before().balance().diskMaxOverMean());
        var how = result.plan().estimation();
        if (how != null) {
            set("libra.prediction.error", "relative error of the last plan's node forecast against the next window",
                    how.lastPredictionError());
            set("libra.estimation.fit.error", "held-out relative error of the cost model in use", how.fitError());
            // only the cooperative scheduler weighs it (a ring's token search does not)
            boolean weighs = io.libra.core.schedule.Strategies.LIBRA.equals(strategy) && how.flowError() != null;
            set("libra.estimation.flow.error", "forecast error a node is expected to gain per unit of normalised load"
                    + " moved through it", weighs ? how.flowError().rate() : Double.NaN);
        }
    }

    /** Registers the gauge with its first finite value; later non-finite values keep the last one. */
    private void set(String name, String description, double value) {
        if (!Double.isFinite(value)) {
            return;
        }
        AtomicLong bits = gauges.computeIfAbsent(name, n -> {
            AtomicLong cell = new AtomicLong(Double.doubleToRawLongBits(value));
            // held strongly: a gauge keeps only a weak reference by default, and shows NaN once the planner is gone
            Gauge.builder(n, cell, c -> Double.longBitsToDouble(c.get())).description(description)
                    .tag("strategy", strategy).strongReference(true).register(registry);
            return cell;
        });
        bits.set(Double.doubleToRawLongBits(value));
    }
}
