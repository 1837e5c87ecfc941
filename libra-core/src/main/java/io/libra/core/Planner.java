package io.libra.core;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.MetricMapping;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The front door of the core: estimate (metric mapping), check the fluctuation guard, plan
 * with a strategy, predict the outcome. Adapters and the CLI all call this.
 */
public final class Planner {
    private final Strategy strategy;
    private final SchedulerConfig config;
    private final EstimationConfig estimation;
    private final FluctuationGuard guard;
    private final InstantSource clock;
    private final long seed;
    private final PlannerMetrics metrics;

    private Planner(Builder b) {
        this.strategy = b.strategy;
        this.config = b.config;
        this.estimation = b.estimation;
        this.guard = b.guard;
        this.clock = b.clock;
        this.seed = b.seed;
        this.metrics = new PlannerMetrics(b.registry, b.strategy.name());
    }

    public static Builder builder() {
        return new Builder();
    }

    public Strategy strategy() {
        return strategy;
    }

    public SchedulerConfig config() {
        return config;
    }

    public EstimationConfig estimation() {
        return estimation;
    }

    /** Estimates the snapshot's load model with this planner's metric mapping. */
    public LoadModel estimate(ClusterSnapshot snapshot) {
        return new MetricMapping(estimation).estimate(snapshot);
    }

    public PlanResult plan(ClusterSnapshot snapshot) {
        return plan(snapshot, Optional.empty());
    }

    /** Plans unless the previous window differs from this one by more than the fluctuation guard allows. */
    public PlanResult plan(ClusterSnapshot snapshot, Optional<ClusterSnapshot> previousWindow) {
        java.time.Instant start = clock.instant();
        LoadModel model = estimate(snapshot);
        Optional<String> unstable = previousWindow.flatMap(prev -> guard.check(prev, snapshot));
        StrategyOutcome outcome = unstable.isPresent()
                ? new StrategyOutcome(Plan.empty(strategy.name(), model.balance(), PlanStatus.SUSPENDED, unstable.get()), model)
                : strategy.outcome(model, context());
        Duration took = Duration.between(start, clock.instant());
        PlanResult result = new PlanResult(outcome.plan(), model, outcome.predicted(), took);
        metrics.record(result);
        return result;
    }

    /** Plans directly on a load model (the predicted state of an earlier plan, for instance). */
    public Plan plan(LoadModel model) {
        return strategy.plan(model, context());
    }

    private PlanningContext context() {
        return new PlanningContext(config, estimation, new SplittableRandom(seed));
    }

    /** Builder with the paper's defaults: libra, λ = 0.05, c = 1.63, 20% fluctuation guard. */
    public static final class Builder {
        private Strategy strategy = Strategies.byName(Strategies.LIBRA);
        private SchedulerConfig config = SchedulerConfig.DEFAULT;
        private EstimationConfig estimation = EstimationConfig.DEFAULT;
        private FluctuationGuard guard = FluctuationGuard.DEFAULT;
        private InstantSource clock = InstantSource.system();
        private long seed = 42;
        private MeterRegistry registry;

        public Builder strategy(String name) {
            this.strategy = Strategies.byName(name);
            return this;
        }

        public Builder strategy(Strategy s) {
            this.strategy = s;
            return this;
        }

        public Builder config(SchedulerConfig c) {
            this.config = c;
            return this;
        }

        public Builder estimation(EstimationConfig e) {
            this.estimation = e;
            return this;
        }

        public Builder fluctuationGuard(FluctuationGuard g) {
            this.guard = g;
            return this;
        }

        public Builder clock(InstantSource c) {
            this.clock = c;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder meterRegistry(MeterRegistry r) {
            this.registry = r;
            return this;
        }

        public Planner build() {
            return new Planner(this);
        }
    }
}
