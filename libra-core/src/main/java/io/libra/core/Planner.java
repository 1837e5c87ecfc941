package io.libra.core;

import io.libra.core.apply.PlanApplier;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.FlowFit;
import io.libra.core.plan.FlowError;
import io.libra.core.estimate.FluctuationGuard;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.Estimator;
import io.libra.core.estimate.Hindcast;
import io.libra.core.estimate.PredictionCheck;
import io.libra.core.estimate.RealisedShare;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.NodeForecast;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.schedule.PlacementRule;
import io.libra.core.schedule.PlanningContext;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import io.libra.core.schedule.Strategy;
import io.libra.core.schedule.StrategyOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The front door of the core: estimate (measured, learnt or the paper's mapping), check the
 * last forecast and the fluctuation guard, plan with a strategy, forecast the outcome.
 */
public final class Planner {
    private final Strategy strategy;
    private final SchedulerConfig config;
    private final EstimationConfig estimation;
    private final FluctuationGuard guard;
    private final InstantSource clock;
    private final boolean learn;
    private final PlannerMetrics metrics;

    private Planner(Builder b) {
        this.strategy = b.strategy;
        this.config = b.config;
        this.estimation = b.estimation;
        this.guard = b.guard;
        this.clock = b.clock;
        this.learn = b.learn;
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

    /** Estimates the snapshot's load model from this window alone. */
    public LoadModel estimate(ClusterSnapshot snapshot) {
        return new Estimator(estimation, learn).estimate(snapshot, List.of()).model();
    }

    public PlanResult plan(ClusterSnapshot snapshot) {
        return plan(PlanRequest.of(snapshot));
    }

    /** Plans unless the previous window differs from this one by more than the fluctuation guard allows. */
    public PlanResult plan(ClusterSnapshot snapshot, Optional<ClusterSnapshot> previousWindow) {
        return plan(new PlanRequest(snapshot, previousWindow.map(List::of).orElse(List.of()), null,
                previousWindow.isPresent()));
    }

    /**
     * Estimates from the window and its history, checks the previous plan's forecast against
     * this window (turning conservative when it was off by more than it claimed to fix), plans,
     * and forecasts each node's load for the next window to check.
     *
     * @throws io.libra.core.estimate.History.MismatchException when a history window does not belong
     */
    public PlanResult plan(PlanRequest request) {
        return plan(request, UnaryOperator.identity());
    }

    /**
     * As {@link #plan(PlanRequest)}, but plans on {@code restrict} applied to the estimated model:
     * an adapter folds into a node's base load the regions it must not move (HBase's system
     * tables), so their load still counts where it sits, or leaves out a node together with its
     * regions for this round.
     */
    public PlanResult plan(PlanRequest request, UnaryOperator<LoadModel> restrict) {
        return plan(request, restrict, PlacementRule.ANY);
    }

    /**
     * As {@link #plan(PlanRequest, UnaryOperator)}, and every action also passes the store's
     * placement rule: a move it refuses goes to the next-best destination instead.
     */
    public PlanResult plan(PlanRequest request, UnaryOperator<LoadModel> restrict, PlacementRule placement) {
        Assessment a = assess(request, restrict);
        Optional<String> unstable = request.guard()
                ? request.lastWindow().flatMap(prev -> guard.check(prev, request.snapshot())) : Optional.empty();
        RivalModels.Choice c = unstable.isPresent()
                ? new RivalModels.Choice(new StrategyOutcome(Plan.empty(strategy.name(), a.model().balance(),
                        PlanStatus.SUSPENDED, unstable.get()), a.model()), a)
                : outcome(a, context(a, placement));
        return finish(c.outcome(), c.assessment(), request.previousPlan(), placement);
    }

    /**
     * The context a strategy plans {@code a}'s model in: its settings, the store's placement rule,
     * and the nodes the estimate found load of their own on (which own-load relief may relieve).
     */
    public PlanningContext context(Assessment a, PlacementRule placement) {
        return new PlanningContext(a.config(), estimation, placement, a.estimation().ownLoad());
    }

    /**
     * The strategy's plan on the assessed model; where a rival model explains the window about as
     * well, the plan made on either that falls least behind the other under both, with the
     * assessment on the model it was made on, to {@link #finish} it with ({@link RivalModels}).
     */
    public RivalModels.Choice outcome(Assessment a, PlanningContext context) {
        return RivalModels.choose(strategy, a, context, new PlanApplier(estimation));
    }

    /**
     * The first half of {@link #plan(PlanRequest, UnaryOperator)}: estimates from the window and
     * its history (then {@code restrict}s the model) and checks the previous plan's forecast
     * against this window, which sets how conservatively this round may plan. After moves, only
     * the share of each region's load those moves were measured to shift moves with it
     * ({@link RealisedShare}).
     *
     * @throws io.libra.core.estimate.History.MismatchException when a history window does not belong
     */
    public Assessment assess(PlanRequest request, UnaryOperator<LoadModel> restrict) {
        Instant start = clock.instant();
        ClusterSnapshot snapshot = request.snapshot();
        Estimator estimator = new Estimator(estimation, learn);
        Estimator.Estimate estimate = estimator.estimate(snapshot, request.history(), request.ownLoad());
        ClusterSnapshot last = request.lastWindow().orElse(null);
        Optional<LoadModel> replayed = Hindcast.replayed(request.previousPlan(), last, estimator, estimate,
                new PlanApplier(estimation)::apply);
        Optional<PredictionCheck> check = PredictionCheck.of(request.previousPlan(), snapshot, config.lambda(), last)
                .map(c -> c.withRefitError(Hindcast.refitError(carriedOnly(c, request) ? Hindcast.layoutReplayed(snapshot,
                        request.history(), estimator, estimate, new PlanApplier(estimation)::apply) : replayed, snapshot,
                        estimate)));
        Optional<FlowFit> flow = replayed.flatMap(after -> FlowFit.learn(request.previousPlan(), after, snapshot));
        FlowError carried = carried(request);
        FlowError flowError = flow.map(f -> f.pooled(carried)).orElse(carried);
        Estimation learnt = estimate.estimation().withLastPredictionError(check.map(PredictionCheck::error).orElse(Double.NaN))
                .withFlowError(flowError);
        Estimation how = flow.map(f -> learnt.withClause(f.describe())).orElse(learnt);
        Optional<RealisedShare> realised = RealisedShare.of(request.previousPlan(), last, snapshot, check, replayed);
        // the estimate's model and its rival's, each with the realised share and the adapter's restriction
        UnaryOperator<LoadModel> planned = m -> restrict.apply(realised.map(m::withMovingShare).orElse(m));
        Optional<Estimator.Rival> rival = estimate.rival().map(r -> r.on(planned));
        Estimation said = realised.map(r -> how.withClause(r.describe())).orElse(how);
        Optional<QuietWindows> quiet = QuietWindows.of(snapshot, request.history());
        Optional<Stall> stall = Stall.of(snapshot, request.history(), request.previousPlan(), config, check);
        Optional<QuietWindows> step = stall.isEmpty() && MeasuredStep.due(check, quiet, config) ? quiet : Optional.empty();
        SchedulerConfig settings = step.isPresent() ? MeasuredStep.config(config)
                : Conservative.config(config, check, LoadModel.measuredBalance(snapshot).imbalanceDegree());
        return new Assessment(snapshot, planned.apply(estimate.model()), check, said,
                settings.withFlowError(flowError == null ? 0 : flowError.rate()).withLanding(Landing.of(config, check)),
                start, request.afterBalanced(), rival, quiet, step, stall);
    }

    /** Whether {@code c} checks a forecast carried on by a plan that moved nothing since the moves it forecast. */
    private static boolean carriedOnly(PredictionCheck c, PlanRequest request) {
        return c.carried() && request.previousPlan().actions().isEmpty();
    }

    /**
     * The flow error the previous plan was made with (or the adapter remembers), carried on where this
     * window cannot learn one (the plan moved nothing, or its moves cannot be replayed), or
     * {@link FlowFit#PRIOR} after a plan made without one; null for a first plan, which no check has
     * yet shown the error of moves for, so that it plans to λ as the paper does (Theorem 1).
     */
    private static FlowError carried(PlanRequest request) {
        if (request.flowError() != null) {
            return request.flowError();
        }
        return request.previousPlan() == null ? null : FlowFit.PRIOR;
    }

    /**
     * The second half: a plan is held back while Δ stays within the hysteresis after a balanced
     * round, or when its predicted gain is within the last forecast error (both noise); the plan
     * states the check, carries each node's forecast for the next window, and the planner's meters
     * record it. Any strategy's outcome on {@code a.model()} may be finished.
     */
    public PlanResult finish(StrategyOutcome outcome, Assessment a) {
        return finish(outcome, a, null, PlacementRule.ANY);
    }

    /**
     * As {@link #finish(StrategyOutcome, Assessment)}; when nothing is to move and the
     * {@code previous} plan's moves were measured to leave Δ worse, they are taken back
     * ({@link Revert}), each as the store's placement rule allows. {@code previous} may be null.
     */
    public PlanResult finish(StrategyOutcome outcome, Assessment a, Plan previous, PlacementRule placement) {
        StrategyOutcome held = Stall.hold(Hysteresis.hold(outcome, a.afterBalanced(), previous, config, a.model(), a.quiet()),
                a.stall(), a.model());
        // a measured step is not held to the carried miss it steps out of
        StrategyOutcome sized = a.step().isPresent() ? held
                : Conservative.withinNoise(held, a.check(), a.model(), a.snapshot());
        StrategyOutcome noise = Conservative.repeated(sized, a.check(), previous, a.model(), a.snapshot());
        boolean idle = noise.plan().actions().isEmpty() && noise.plan().status() != PlanStatus.SUSPENDED;
        // a stall holds the moves too: Δ is within λ of where they began, and taking them back is churn as well
        StrategyOutcome kept = idle && previous != null && a.stall().isEmpty()
                ? Revert.orHeld(noise, previous, a.check(), a.model(), estimation, placement.fresh(), strategy) : noise;
        Plan plan = Landing.explain(explain(kept.plan(), a), a.config()).withForecast(forecast(kept, a), a.estimation());
        plan = carriesOn(plan, a) && previous != null && !plan.isRevert() ? plan.withTakenBack(previous.takenBack()) : plan;
        PlanResult result = new PlanResult(plan, a.model(), kept.predicted(), Duration.between(a.started(), clock.instant()),
                a.check(), a.step().isPresent() && !plan.isRevert());
        metrics.record(result);
        return result;
    }

    /** The check stated in the plan: why it is conservative, or why it takes a step out of a hold. */
    private Plan explain(Plan p, Assessment a) {
        return a.step().isPresent() && a.check().isPresent() && !p.isRevert()
                ? MeasuredStep.explain(p, a.check().get(), a.step().get(), config.lambda())
                : Conservative.explain(p, a.check());
    }

    /**
     * A plan held back after a check carries the checked forecast on, so the next window checks it
     * again, unless the workload itself moved since: then that forecast no longer says anything.
     */
    private List<NodeForecast> forecast(StrategyOutcome kept, Assessment a) {
        return carriesOn(kept.plan(), a) ? a.check().get().forecast() : kept.predicted().forecast();
    }

    /** Whether {@code p} carries the checked forecast on (and the moves taken back with it): see {@link #forecast}. */
    private boolean carriesOn(Plan p, Assessment a) {
        boolean carries = PredictionCheck.heldBack(p, config.lambda()) || p.isRevert();
        return carries && a.check().filter(c -> !c.explainedByWorkload()).isPresent();
    }

    /**
     * Plans directly on a load model (the predicted state of an earlier plan, for instance). The
     * nodes it runs at a speed of their own have that load of their own, as the estimate that made
     * the model found (a plan kept on a rival's speeds relieved them so).
     */
    public Plan plan(LoadModel model) {
        return strategy.plan(model, new PlanningContext(config, estimation, PlacementRule.ANY, model.ownSpeeds()));
    }

    /** Builder with the paper's defaults: libra, λ = 0.05, c = 1.63, 20% fluctuation guard. */
    public static final class Builder {
        private Strategy strategy = Strategies.byName(Strategies.LIBRA);
        private SchedulerConfig config = SchedulerConfig.DEFAULT;
        private EstimationConfig estimation = EstimationConfig.DEFAULT;
        private FluctuationGuard guard = FluctuationGuard.DEFAULT;
        private InstantSource clock = InstantSource.system();
        private MeterRegistry registry;
        private boolean learn = true;

        /** Whether per-region cost may be learnt from node totals (true) or is the paper's fixed mapping. */
        public Builder learning(boolean on) {
            this.learn = on;
            return this;
        }

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

        public Builder meterRegistry(MeterRegistry r) {
            this.registry = r;
            return this;
        }

        public Planner build() {
            return new Planner(this);
        }
    }
}
