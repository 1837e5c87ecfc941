package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.util.function.Function;

/**
 * Baselines that balance one score (§II-C, §V-F): 1d-cpu and 1d-io score one dimension and
 * ignore the other; 2d-wtd scores {@code w·A′ + (1 − w)·B′}, as HBase's cost functions combine
 * load terms (default 0.5:0.5), and is blind to (100, 50) against (50, 100).
 */
public final class ScoreStrategy implements Strategy {
    private final String name;
    private final Function<SchedulerConfig, Score> score;

    private ScoreStrategy(String name, Function<SchedulerConfig, Score> score) {
        this.name = name;
        this.score = score;
    }

    public static ScoreStrategy cpuOnly() {
        return new ScoreStrategy("1d-cpu", c -> Score.CPU);
    }

    public static ScoreStrategy diskOnly() {
        return new ScoreStrategy("1d-io", c -> Score.DISK);
    }

    public static ScoreStrategy weighted() {
        return new ScoreStrategy("2d-wtd", c -> new Score(c.cpuWeight(), 1 - c.cpuWeight()));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StrategyOutcome outcome(LoadModel model, PlanningContext context) {
        SchedulerConfig config = context.config();
        WorkingState state = new WorkingState(model, context);
        Score s = score.apply(config);
        ScoreBalancer balancer = new ScoreBalancer(state, config, s);
        if (balancer.maxScore() <= 1 + config.lambda()) {
            return PlanFinisher.unchanged(Plan.empty(name, model.balance(), PlanStatus.BALANCED, s.label()
                    + " within 1 + λ"), model);
        }
        int cap = Baselines.cap(model, config);
        while (state.actions().size() < cap && balancer.step()) {
            // each step moves one region
        }
        return PlanFinisher.finish(name, model, context, state.actions(), "no region fits under the load constraint");
    }
}
