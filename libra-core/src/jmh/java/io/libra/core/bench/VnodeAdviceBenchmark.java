package io.libra.core.bench;

import io.libra.core.ring.ReplicaLoad;
import io.libra.core.ring.RingSegment;
import io.libra.core.ring.VnodeAdvisor;
import io.libra.core.ring.VnodeRing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * Time of the add-node advice for one node joining a vnode ring (what
 * {@code GET /api/v1/advice/add-node} computes on request): nodes × tokens per node × slices per
 * segment × replication factor. Each range's CPU and disk are drawn log-normal from a fixed seed,
 * and the nodes' tokens are dealt at random over the ranges.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class VnodeAdviceBenchmark {
    @Param({"3x16x8x3", "6x16x8x3", "6x64x4x1", "3x256x2x1"})
    public String ring;

    private VnodeRing vnodes;
    private int tokens;
    private int slices;

    @Setup(Level.Trial)
    public void setUp() {
        String[] p = ring.split("x");
        tokens = Integer.parseInt(p[1]);
        slices = Integer.parseInt(p[2]);
        vnodes = ring(Integer.parseInt(p[0]), tokens, Integer.parseInt(p[3]), 7);
    }

    @Benchmark
    public VnodeAdvisor.Advice advise() {
        return new VnodeAdvisor(slices).advise(vnodes, 1, tokens, null);
    }

    /** {@code nodes × tokens} equal segments, one token each, dealt at random; log-normal load per segment. */
    static VnodeRing ring(int nodes, int tokens, int rf, long seed) {
        Random r = new Random(seed);
        int n = nodes * tokens;
        long step = Long.divideUnsigned(-1L, n) + 1;
        List<RingSegment> segments = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long end = i == n - 1 ? Long.MAX_VALUE : Long.MIN_VALUE + (i + 1) * step - 1;
            double cpu = Math.exp(r.nextGaussian());
            double disk = Math.exp(r.nextGaussian()) * 1e6;
            segments.add(new RingSegment(end, List.of(new ReplicaLoad(rf, cpu, disk, 1e6))));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, r);
        List<VnodeRing.Member> members = new ArrayList<>(nodes);
        for (int j = 0; j < nodes; j++) {
            List<Long> own = new ArrayList<>(tokens);
            for (int k = 0; k < tokens; k++) {
                own.add(segments.get(order.get(j * tokens + k)).endToken());
            }
            members.add(new VnodeRing.Member("n" + j, own, 0, 0));
        }
        return new VnodeRing(members, segments, Map.of());
    }

    /** For a quick look without JMH: {@code VnodeAdviceBenchmark 6x16x8x3}, with the predicted Δ before and after. */
    public static void main(String[] args) {
        for (String s : args) {
            VnodeAdviceBenchmark b = new VnodeAdviceBenchmark();
            b.ring = s;
            b.setUp();
            long t0 = System.nanoTime();
            VnodeAdvisor.Advice a = b.advise();
            System.out.printf(java.util.Locale.ROOT, "%s: %.2f s, Δ %.3f -> %.3f (ownership baseline %.3f)%n", s,
                    (System.nanoTime() - t0) / 1e9, a.before().imbalanceDegree(), a.after().imbalanceDegree(),
                    a.splitAfter().imbalanceDegree());
        }
    }
}
