package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.Sidecar;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ring with evenly spaced tokens (what {@code initial_token} by ownership gives) under a skewed
 * key workload: three quarters of the RF=1 keyspace's keys outside the first half of n2's arc are
 * never written, so that half-arc holds most keys and most traffic, and n2 carries about 2.5 times
 * what each other node does. Only the partition samplers can tell where in n2's arc the load
 * lies. The sidecar's plan moves tokens away from even spacing, and by the nodes' own counters
 * (CPU seconds, /proc disk bytes over the same number of operations) it beats even spacing;
 * every write acknowledged at QUORUM reads back.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SkewedKeysIT {
    private static final Logger LOG = LoggerFactory.getLogger(SkewedKeysIT.class);
    private static final String AUTH = "it-skewed-keys-secret";
    private static final long ARC = Long.divideUnsigned(-1L, 3); // a third of the token space
    /** Evenly spaced: n1, n2, n3 each own a third of the ring. */
    private static final long[] EVEN = {Long.MIN_VALUE + ARC / 2, Long.MIN_VALUE + ARC / 2 + ARC,
        Long.MIN_VALUE + ARC / 2 + 2 * ARC};
    private static final int MEASURE_OPS = 16_000;

    @Test
    void thePlanLeavesEvenSpacingAndBeatsIt() throws Exception {
        long hotFrom = EVEN[0];
        long hotTo = EVEN[0] + ARC / 2; // the first half of n2's arc (EVEN[0], EVEN[1]]
        try (Ring ring = new Ring(EVEN)) {
            ring.start();
            try (CqlSession session = Cql.session()) {
                Cql.keyspaces(session, 1, 3);
                Workload load = new Workload(session, 800, new Workload.Spec(Workload.Spec.DEFAULT.keyspaces(),
                        ConsistencyLevel.QUORUM, new long[] {Workload.MAX_KEYS_RF1, Workload.MAX_KEYS_RF3}, 512,
                        new Workload.Skew(t -> t > hotFrom && t <= hotTo, 4)));
                Usage before;
                Usage after;
                JsonNode job;
                try (Sidecar sidecar = new Sidecar(new ItSidecarConfig(3, AUTH).load("sidecar-skewed-keys")).start()) {
                    SidecarHttp api = new SidecarHttp(sidecar.port());
                    Rebalance rebalance = new Rebalance(api, AUTH);
                    load.start();
                    Usage.measure(ring, load, MEASURE_OPS / 2); // warm-up
                    before = Usage.measureQuiet(ring, load, MEASURE_OPS);
                    JsonNode plan = rebalance.awaitPlan();
                    LOG.info("even spacing: cpu Max/Mean {}, disk Max/Mean {} ({}); plan {}", before.cpuMaxOverMean(),
                            before.diskMaxOverMean(), before, plan);
                    assertThat(before.diskMaxOverMean()).as("the skew shows on the nodes' own counters").isGreaterThan(1.3);
                    JsonNode status = api.get("/api/v1/status").body();
                    assertThat(status.path("sampledOps").asLong()).as("the samplers saw the keys").isPositive();
                    assertThat(status.path("hotPartitions").findValues("writeBytes")).as("WRITE_SIZE placed bytes written")
                            .anySatisfy(b -> assertThat(b.asLong()).isPositive());
                    job = rebalance.runToTheEnd();
                }
                load.close();
                try (CqlSession fresh = Cql.session()) { // routes by the new token map
                    Workload moved = new Workload(fresh, load);
                    moved.start();
                    Usage.measure(ring, moved, MEASURE_OPS / 2); // streamed data and cleanups settle
                    after = Usage.measureQuiet(ring, moved, MEASURE_OPS);
                    moved.close();
                    LOG.info("after {}: cpu Max/Mean {}, disk Max/Mean {} ({})", job.path("moves"), after.cpuMaxOverMean(),
                            after.diskMaxOverMean(), after);
                    assertThat(new long[] {ring.token(0), ring.token(1), ring.token(2)}).as("tokens left even spacing")
                            .isNotEqualTo(EVEN);
                    assertThat(after.diskMaxOverMean()).as("disk Max/Mean beats even spacing")
                            .isLessThan(before.diskMaxOverMean());
                    assertThat(Math.max(after.cpuMaxOverMean(), after.diskMaxOverMean()))
                            .as("the worse dimension's Max/Mean beats even spacing")
                            .isLessThan(Math.max(before.cpuMaxOverMean(), before.diskMaxOverMean()));
                    Acknowledged.readBack(fresh, moved, ConsistencyLevel.QUORUM);
                }
            }
        }
    }
}
