package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Clusters;
import io.libra.core.PlanResult;
import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.PlanStatus;
import org.junit.jupiter.api.Test;

class CooperativeSchedulerTest {
    @Test
    void dualImbalancedClusterReachesLambdaInBothDimensions() {
        ClusterSnapshot s = Clusters.dualImbalanced(8, 32, 1);
        for (String name : Strategies.names()) {
            PlanResult r = Planner.builder().strategy(name).build().plan(s);
            System.out.printf("%-7s before %s predicted %s moves %d splits %d%n", name, r.plan().before(),
                    r.plan().predicted(), r.plan().count("move"), r.plan().count("split"));
        }
        PlanResult r = Planner.builder().build().plan(s);
        assertThat(r.plan().status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(r.predicted().balance().imbalanceDegree()).isLessThanOrEqualTo(0.05 + 1e-9);
    }
}
