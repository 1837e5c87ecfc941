package io.libra.core.bench;

import io.libra.core.Planner;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Plan time of the whole planner (metric mapping + cooperative scheduling + plan optimisation +
 * prediction) at growing cluster sizes, nodes × regions. Heap capped at 2 GB.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class PlanBenchmark {
    @Param({"8x256", "100x10000", "1000x100000", "10000x1000000"})
    public String size;

    @Param({"libra"})
    public String strategy;

    private ClusterSnapshot snapshot;
    private Planner planner;

    @Setup(Level.Trial)
    public void setUp() {
        String[] nm = size.split("x");
        snapshot = SyntheticCluster.of(Integer.parseInt(nm[0]), Integer.parseInt(nm[1]), 7);
        planner = Planner.builder().strategy(strategy).build();
    }

    @Benchmark
    public Plan plan() {
        return planner.plan(snapshot).plan();
    }

    /** For a quick look without JMH: {@code PlanBenchmark 1000x100000}. */
    public static void main(String[] args) {
        for (String s : args) {
            String[] nm = s.split("x");
            ClusterSnapshot snap = SyntheticCluster.of(Integer.parseInt(nm[0]), Integer.parseInt(nm[1]), 7);
            Planner p = Planner.builder().build();
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                LoadModel m = p.estimate(snap);
                long t1 = System.nanoTime();
                Plan plan = p.plan(m);
                long t2 = System.nanoTime();
                var r = p.plan(snap);
                long t3 = System.nanoTime();
                System.out.printf("%s estimate %d ms, schedule %d ms, full %d ms; %d moves %d splits; %s -> %s%n", s,
                        (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, plan.count("move"),
                        plan.count("split"), r.plan().before(), r.plan().predicted());
            }
        }
    }
}
