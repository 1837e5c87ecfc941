package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.plan.Balance;
import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class BalancerMetricsTest {
    @Test
    void gaugesAndCountersAppearOnJmx() throws Exception {
        try (BalancerMetrics m = BalancerMetrics.onJmx()) {
            PlanResult r = Planner.builder().build().plan(Skewed.snapshot());
            m.planned(r, new Balance(1.5, 1.4, 0.5), 3, 1, 0, 1024);
            BalancerMetrics.movesExecuted(2);
            MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = mbs.queryNames(new ObjectName(BalancerMetrics.DOMAIN + ":*"), null);
            assertThat(names).extracting(ObjectName::toString).anyMatch(n -> n.contains("libraHbaseCpuMaxOverMean"));
            ObjectName cpu = names.stream().filter(n -> n.toString().contains("libraHbaseCpuMaxOverMean")).findFirst().orElseThrow();
            assertThat((Double) mbs.getAttribute(cpu, "Value")).isEqualTo(r.before().balance().cpuMaxOverMean());
            ObjectName executed = names.stream().filter(n -> n.toString().contains("libraHbaseMovesExecuted")).findFirst().orElseThrow();
            assertThat(((Number) mbs.getAttribute(executed, "Count")).longValue()).isEqualTo(2);
        }
    }

    @Test
    void aSecondBalancerInTheSameJvmKeepsItsMetersOnJmx() throws Exception {
        BalancerMetrics first = BalancerMetrics.onJmx();
        try (BalancerMetrics second = BalancerMetrics.onJmx()) {
            second.planned(Planner.builder().build().plan(Skewed.snapshot()), new Balance(1.5, 1.4, 0.5), 0, 0, 1, 0);
            first.close(); // the first balancer stops after the second started (a failover in one JVM)
            MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
            ObjectName estimated = mbs.queryNames(new ObjectName(BalancerMetrics.DOMAIN + ":*"), null).stream()
                    .filter(n -> n.toString().contains("libraHbaseNodesEstimated")).findFirst().orElseThrow();
            assertThat(((Number) mbs.getAttribute(estimated, "Value")).doubleValue()).isEqualTo(1.0);
        }
    }
}
