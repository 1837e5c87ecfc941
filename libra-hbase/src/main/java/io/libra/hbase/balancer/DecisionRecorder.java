package io.libra.hbase.balancer;

import io.libra.core.PlanResult;
import io.libra.core.plan.Balance;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.BalancerDecision;
import org.apache.hadoop.hbase.master.balancer.BaseLoadBalancer;
import org.apache.hadoop.hbase.namequeues.BalancerDecisionDetails;
import org.apache.hadoop.hbase.namequeues.NamedQueueRecorder;

/**
 * Records each run in HBase's balancer decision ring buffer, the one
 * {@code Admin.getLogEntries(null, "BALANCER_DECISION", ServerType.MASTER, n, null)} reads, when
 * {@code hbase.master.balancer.decision.buffer.enabled} is true. Costs are the imbalance degree
 * Δ before and as predicted after the plan; each region plan line carries its reason.
 */
final class DecisionRecorder {
    private final NamedQueueRecorder recorder;

    private DecisionRecorder(NamedQueueRecorder recorder) {
        this.recorder = recorder;
    }

    static DecisionRecorder off() {
        return new DecisionRecorder(null);
    }

    static DecisionRecorder from(Configuration conf) {
        boolean on = conf.getBoolean(BaseLoadBalancer.BALANCER_DECISION_BUFFER_ENABLED,
                BaseLoadBalancer.DEFAULT_BALANCER_DECISION_BUFFER_ENABLED);
        return new DecisionRecorder(on ? NamedQueueRecorder.getInstance(conf) : null);
    }

    boolean enabled() {
        return recorder != null;
    }

    void record(PlanResult result, List<String> lines, String outcome) {
        if (recorder == null) {
            return;
        }
        List<String> plans = new ArrayList<>(lines);
        plans.add(0, outcome);
        BalancerDecision decision = new BalancerDecision.Builder()
                .setInitTotalCost(result.before().balance().imbalanceDegree())
                .setComputedTotalCost(result.predicted().balance().imbalanceDegree())
                .setInitialFunctionCosts(describe(result.before().balance()))
                .setFinalFunctionCosts(describe(result.predicted().balance()))
                .setComputedSteps(result.plan().actions().size())
                .setRegionPlans(plans)
                .build();
        recorder.addRecord(new BalancerDecisionDetails(decision));
    }

    private static String describe(Balance b) {
        return String.format(Locale.ROOT, "Libra: cpu max/mean=%.3f, disk max/mean=%.3f, delta=%.3f",
                b.cpuMaxOverMean(), b.diskMaxOverMean(), b.imbalanceDegree());
    }
}
