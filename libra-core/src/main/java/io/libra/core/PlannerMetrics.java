package io.libra.core;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Planner meters: Δ and Max/Mean per dimension of the last planned state, actions planned,
 * plan time. Registered only when a registry is given.
 */
final class PlannerMetrics {
    private final AtomicReference<PlanResult> last = new AtomicReference<>();
    private final Counter actions;
    private final Timer planTime;

    PlannerMetrics(MeterRegistry registry, String strategy) {
        if (registry == null) {
            actions = null;
            planTime = null;
            return;
        }
        gauge(registry, "libra.imbalance.degree", "Δ: largest node deviation from the mean (eq. 4)", strategy,
                r -> r.before().balance().imbalanceDegree());
        gauge(registry, "libra.cpu.max.over.mean", "Max/Mean of node CPU load", strategy,
                r -> r.before().balance().cpuMaxOverMean());
        gauge(registry, "libra.disk.max.over.mean", "Max/Mean of node disk load", strategy,
                r -> r.before().balance().diskMaxOverMean());
        gauge(registry, "libra.prediction.error", "relative error of the last plan's node forecast against the next window",
                strategy, r -> r.plan().estimation() == null ? Double.NaN : r.plan().estimation().lastPredictionError());
        gauge(registry, "libra.estimation.fit.error", "held-out relative error of the cost model in use", strategy,
                r -> r.plan().estimation() == null ? Double.NaN : r.plan().estimation().fitError());
        actions = Counter.builder("libra.actions.planned").description("actions in plans made")
                .tag("strategy", strategy).register(registry);
        planTime = Timer.builder("libra.plan.time").description("time to make a plan")
                .tag("strategy", strategy).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, String strategy,
                       java.util.function.ToDoubleFunction<PlanResult> f) {
        Gauge.builder(name, last, ref -> ref.get() == null ? Double.NaN : f.applyAsDouble(ref.get()))
                .description(description).tag("strategy", strategy).register(registry);
    }

    void record(PlanResult result) {
        last.set(result);
        if (actions != null) {
            actions.increment(result.plan().actions().size());
            planTime.record(result.planTime());
        }
    }
}
