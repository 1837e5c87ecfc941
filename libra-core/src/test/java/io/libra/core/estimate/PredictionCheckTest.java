package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forecast check measured in Δ too: moves that left the cluster more imbalanced than they
 * found it make the next plan conservative, even when the mean error is under the claim.
 */
class PredictionCheckTest {
    /** The window the plan was made on: n0 hot (6 of a mean 4.5 in both dimensions, Δ 0.333). */
    private static final double[] BEFORE = {6, 4, 4, 4};

    private static ClusterSnapshot window(double... load) {
        List<Node> nodes = new ArrayList<>();
        for (int j = 0; j < load.length; j++) {
            nodes.add(new Node("n" + j, 64, load[j], load[j] * 1e8));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, nodes, List.of(Clusters.region(0, "n0", 1, 0, 1, 0)));
    }

    /** Moves n0's hot region to n1, forecast to leave n0 and n1 at 5 (Δ 0.111, a claim of 0.222). */
    private static Plan plan(Balance before) {
        List<NodeForecast> forecast = List.of(new NodeForecast("n0", 5, 5e8), new NodeForecast("n1", 5, 5e8),
                new NodeForecast("n2", 4, 4e8), new NodeForecast("n3", 4, 4e8));
        return new Plan("libra", List.of(new MoveAction("r0", "n0", "n1", 1e6, null)), before,
                new Balance(10.0 / 9, 10.0 / 9, 1.0 / 9), PlanStatus.PLANNED, "").withForecast(forecast, null);
    }

    @Test
    void movesThatLeftDeltaWorseMakeTheNextPlanConservativeThoughTheMeanErrorIsSmall() {
        ClusterSnapshot last = window(BEFORE);
        Plan p = plan(LoadModel.measuredBalance(last));
        // the destination took far more than forecast: 1.6 of 19.6 off (8.2%), under the 22.2% claimed
        PredictionCheck worse = PredictionCheck.of(p, window(5, 6.6, 4, 4), 0.05, last).orElseThrow();
        assertThat(worse.error()).isLessThan(worse.claimed());
        assertThat(worse.worsened()).isTrue();
        assertThat(worse.conservative()).isTrue();
        assertThat(worse.describe()).contains("and its moves left Δ worse, 0.333 → 0.347")
                .endsWith(": conservative, only actions whose benefit exceeds that error");
        PredictionCheck better = PredictionCheck.of(p, window(5.2, 4.8, 4, 4), 0.05, last).orElseThrow();
        assertThat(better.worsened()).isFalse();
        assertThat(better.conservative()).isFalse();
    }

    /** A plan not made on the last window (a job that ran over several) says nothing of how that window's Δ moved. */
    @Test
    void onlyAPlanMadeOnTheLastWindowIsJudgedByDelta() {
        ClusterSnapshot last = window(BEFORE);
        PredictionCheck other = PredictionCheck.of(plan(new Balance(1.2, 1.2, 0.2)), window(5, 6.6, 4, 4), 0.05, last)
                .orElseThrow();
        assertThat(other.deltaBefore()).isNaN();
        assertThat(other.worsened()).isFalse();
        assertThat(other.conservative()).isFalse();
        assertThat(PredictionCheck.of(plan(LoadModel.measuredBalance(last)), window(5, 6.6, 4, 4), 0.05).orElseThrow()
                .worsened()).as("no last window given").isFalse();
    }

    /**
     * The forecast moved n0 and n1 by 1 each of 18 measured: a change of 11.1%. A plan moving the
     * nodes a quarter as far must beat 1.5 × √¼ = 75% of that forecast's error; one moving as far,
     * all of it (the rule without scaling); one moving four times as far, √4 = 2 times it.
     */
    @Test
    void aSmallerPlanMustBeatTheShareOfTheErrorItsSizeExpects() {
        ClusterSnapshot last = window(BEFORE);
        PredictionCheck held = PredictionCheck.of(plan(LoadModel.measuredBalance(last)), window(5.2, 4.8, 4, 4), 0.05, last)
                .orElseThrow();
        assertThat(held.change()).isCloseTo(2.0 / 18, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(held.conservative()).isFalse();
        assertThat(held.scaleTo(held.change() / 4)).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(held.scaleTo(held.change() / 100)).isCloseTo(0.15, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(held.scaleTo(held.change())).isEqualTo(1);
        assertThat(held.scaleTo(held.change() * 4)).isCloseTo(2, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(held.scaleTo(Double.NaN)).isEqualTo(1);
    }

    @Test
    void aCheckThatTurnedConservativeIsNotScaledDownNorOneWithoutAChange() {
        ClusterSnapshot last = window(BEFORE);
        PredictionCheck worse = PredictionCheck.of(plan(LoadModel.measuredBalance(last)), window(5, 6.6, 4, 4), 0.05, last)
                .orElseThrow();
        assertThat(worse.conservative()).isTrue();
        assertThat(worse.scaleTo(worse.change() / 100)).isEqualTo(1);
        assertThat(worse.scaleTo(worse.change() * 9)).as("a larger plan expects more error all the same")
                .isCloseTo(3, org.assertj.core.data.Offset.offset(1e-12));
        PredictionCheck unknown = PredictionCheck.of(plan(LoadModel.measuredBalance(last)), window(5.2, 4.8, 4, 4), 0.05)
                .orElseThrow();
        assertThat(unknown.change()).isNaN();
        assertThat(unknown.scaleTo(0.001)).isEqualTo(1);
    }
}
