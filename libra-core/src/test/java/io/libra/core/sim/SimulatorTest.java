package io.libra.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {
    private final Simulator simulator = new Simulator(CostModel.DEFAULT);

    private SimulationResult run(String scenario, int nodes, int regions, int rounds, long seed, List<String> strategies) {
        Scenario s = Scenario.byName(scenario).resized(nodes, regions, rounds);
        return simulator.run(new Simulator.Config(s, seed, strategies, 0.05, true), (done, total) -> { });
    }

    @Test
    void sameSeedSameResult() {
        SimulationResult a = run("hotspot-shift", 4, 48, 3, 7, List.of("libra", "2d-wtd"));
        SimulationResult b = run("hotspot-shift", 4, 48, 3, 7, List.of("libra", "2d-wtd"));
        assertThat(strip(a)).isEqualTo(strip(b));
    }

    @Test
    void anotherSeedAnotherCluster() {
        SimulationResult a = run("paper-mixgraph", 4, 48, 1, 1, List.of());
        SimulationResult b = run("paper-mixgraph", 4, 48, 1, 2, List.of());
        assertThat(a.initial().cpuMaxOverMean()).isNotEqualTo(b.initial().cpuMaxOverMean());
    }

    /** Plan times differ between runs; everything else must not. */
    private static List<Object> strip(SimulationResult r) {
        return r.runs().stream().map(run -> (Object) List.of(run.strategy(), run.end(), run.moves(), run.splits(),
                run.movedBytes(), run.throughputVsNone(), run.p99Millis(),
                run.rounds().stream().map(x -> List.of(x.cpuMaxOverMean(), x.diskMaxOverMean(), x.moves(), x.splits())).toList()))
                .toList();
    }

    @Test
    void noneIsAlwaysTheReference() {
        SimulationResult r = run("ycsb-b", 4, 32, 2, 1, List.of("libra"));
        assertThat(r.runs()).extracting(StrategyRun::strategy).containsExactly("none", "libra");
        assertThat(r.run("none").orElseThrow().throughputVsNone()).isEqualTo(1.0);
        assertThat(r.run("none").orElseThrow().moves()).isZero();
    }

    @Test
    void calmClusterIsLeftAlone() {
        SimulationResult r = run("calm", 8, 64, 3, 1, List.of("libra", "1d-cpu", "1d-io", "2d-iso", "2d-wtd"));
        for (StrategyRun run : r.runs()) {
            assertThat(run.moves() + run.splits() + run.merges()).as(run.strategy()).isZero();
        }
    }

    @Test
    void paperScenarioHasMisalignedDualImbalance() {
        Scenario s = Scenario.byName("paper-mixgraph");
        ClusterSnapshot snap = simulator.snapshot(s, 1, 0);
        int cpuHot = 0;
        int diskHot = 0;
        for (int j = 1; j < snap.nodes().size(); j++) {
            if (snap.nodes().get(j).cpuUsage() > snap.nodes().get(cpuHot).cpuUsage()) {
                cpuHot = j;
            }
            if (snap.nodes().get(j).diskBytesPerSec() > snap.nodes().get(diskHot).diskBytesPerSec()) {
                diskHot = j;
            }
        }
        assertThat(cpuHot).isNotEqualTo(diskHot);
        Score start = SimCluster.initial(s, 1).score(CostModel.DEFAULT, s.workload(1, 0).withTotalOps(1e5));
        assertThat(start.cpuMaxOverMean()).isGreaterThan(1.2);
        assertThat(start.diskMaxOverMean()).isGreaterThan(1.1);
    }

    @Test
    void migrationsCostDiskOnBothEnds() {
        Scenario s = Scenario.byName("calm").resized(2, 4, 1);
        SimCluster c = SimCluster.initial(s, 1);
        Workload w = s.workload(1, 0).withTotalOps(1000);
        Executor exec = new Executor(CostModel.DEFAULT, 60);
        List<NodeTruth> quiet = exec.run(c.copy(), null, w).truth();
        SimRegion r = c.regions().iterator().next();
        String to = c.nodes().stream().map(NodeSpec::id).filter(n -> !n.equals(r.node())).findFirst().orElseThrow();
        io.libra.core.plan.Plan plan = new io.libra.core.plan.Plan("test",
                List.of(new io.libra.core.plan.MoveAction(r.id(), r.node(), to, 0, null)), null, null, null, null);
        Executor.Done done = exec.run(c, plan, w);
        assertThat(done.moves()).isEqualTo(1);
        for (int j = 0; j < 2; j++) {
            assertThat(done.truth().get(j).disk()).isGreaterThan(quiet.get(j).disk() + r.sizeBytes(w) / 60 * 0.99);
        }
        assertThat(c.region(r.id()).node()).isEqualTo(to);
    }

    @Test
    void queueingModelPrefersBalance() {
        List<NodeSpec> nodes = List.of(new NodeSpec("a", 8, 100e6, 0), new NodeSpec("b", 8, 100e6, 0));
        Score even = CostModel.score(nodes, List.of(new NodeTruth("a", 4, 50e6, 0, 1000), new NodeTruth("b", 4, 50e6, 0, 1000)));
        Score skewed = CostModel.score(nodes, List.of(new NodeTruth("a", 6, 75e6, 0, 1500), new NodeTruth("b", 2, 25e6, 0, 500)));
        assertThat(QueueingModel.saturationScale(even)).isGreaterThan(QueueingModel.saturationScale(skewed));
        assertThat(QueueingModel.p99Millis(even, 1)).isLessThan(QueueingModel.p99Millis(skewed, 1));
    }
}
