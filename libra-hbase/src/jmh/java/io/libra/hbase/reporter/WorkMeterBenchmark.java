package io.libra.hbase.reporter;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What per-region work measurement adds to one request in the RPC handler: the region
 * observer's {@code beginRequest}/{@code endRequest} pair, amortised over requests, with one in
 * {@code every} sampled (thread CPU time from ThreadMXBean plus /proc/thread-self/io, read twice).
 * {@code every=1} shows the cost of one measured request.
 *
 * <pre>./mvnw -B -pl libra-hbase test-compile exec:exec@jmh -Djmh.args="WorkMeterBenchmark"</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WorkMeterBenchmark {
    @Param({"64", "1"})
    public int every;

    private WorkMeter meter;
    private final RegionTraffic region = new RegionTraffic();

    @Setup
    public void setUp() {
        meter = new WorkMeter(every);
    }

    @Benchmark
    public void measuredRequest() {
        meter.beginRequest();
        meter.endRequest(region);
    }
}
