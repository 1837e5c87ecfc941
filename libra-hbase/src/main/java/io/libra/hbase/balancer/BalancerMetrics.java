package io.libra.hbase.balancer;

import io.libra.core.PlanResult;
import io.libra.core.plan.Balance;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * The balancer's gauges and counters on the master's JMX (domain {@code libra}): Δ and
 * Max/Mean CPU and disk as measured and as predicted after the last plan, moves planned and
 * executed, splits requested, nodes estimated from counters alone.
 */
final class BalancerMetrics implements AutoCloseable {
    static final String DOMAIN = "libra";
    private static final AtomicReference<BalancerMetrics> CURRENT = new AtomicReference<>();

    private final MeterRegistry registry;
    private final AtomicReference<PlanResult> last = new AtomicReference<>();
    private final AtomicReference<Balance> thisRun = new AtomicReference<>();
    private volatile int estimatedNodes;
    private final Counter movesPlanned;
    private final Counter movesExecuted;
    private final Counter splitsRequested;
    private final Counter bytesMoved;

    BalancerMetrics(MeterRegistry registry) {
        this.registry = registry;
        gauge("libra.hbase.imbalance.degree", "Δ before the last plan (eq. 4)", r -> r.before().balance().imbalanceDegree());
        gauge("libra.hbase.cpu.max.over.mean", "Max/Mean of node CPU before the last plan", r -> r.before().balance().cpuMaxOverMean());
        gauge("libra.hbase.disk.max.over.mean", "Max/Mean of node disk before the last plan", r -> r.before().balance().diskMaxOverMean());
        runGauge("libra.hbase.predicted.imbalance.degree", "Δ predicted after the last run's moves", Balance::imbalanceDegree);
        runGauge("libra.hbase.predicted.cpu.max.over.mean", "Max/Mean CPU predicted after the last run's moves", Balance::cpuMaxOverMean);
        runGauge("libra.hbase.predicted.disk.max.over.mean", "Max/Mean disk predicted after the last run's moves", Balance::diskMaxOverMean);
        Gauge.builder("libra.hbase.nodes.estimated", this, m -> m.estimatedNodes)
                .description("RegionServers estimated from counters alone (report missing or stale)").register(registry);
        movesPlanned = Counter.builder("libra.hbase.moves.planned").description("region moves returned to the master").register(registry);
        movesExecuted = Counter.builder("libra.hbase.moves.executed").description("region moves the master executed").register(registry);
        splitsRequested = Counter.builder("libra.hbase.splits.requested").description("splits requested at planned keys").register(registry);
        bytesMoved = Counter.builder("libra.hbase.bytes.moved").baseUnit("bytes")
                .description("store-file bytes of the regions returned to the master to move (they lose locality)")
                .register(registry);
    }

    /** A registry that publishes on the platform MBean server under {@link #DOMAIN}. */
    static BalancerMetrics onJmx() {
        JmxConfig config = new JmxConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String domain() {
                return DOMAIN;
            }
        };
        // the previous balancer's meters (a master restarted in this JVM) go first: they have the
        // same names, so closing them after registering these would unregister these
        BalancerMetrics old = CURRENT.getAndSet(null);
        if (old != null) {
            old.close();
        }
        BalancerMetrics m = new BalancerMetrics(new JmxMeterRegistry(config, Clock.SYSTEM));
        CURRENT.set(m);
        return m;
    }

    private void gauge(String name, String description, ToDoubleFunction<PlanResult> f) {
        Gauge.builder(name, last, ref -> ref.get() == null ? Double.NaN : f.applyAsDouble(ref.get()))
                .description(description).register(registry);
    }

    private void runGauge(String name, String description, ToDoubleFunction<Balance> f) {
        Gauge.builder(name, thisRun, ref -> ref.get() == null ? Double.NaN : f.applyAsDouble(ref.get()))
                .description(description).register(registry);
    }

    void planned(PlanResult result, Balance afterThisRun, int moves, int splits, int estimated, double bytes) {
        bytesMoved.increment(bytes);
        last.set(result);
        thisRun.set(afterThisRun);
        estimatedNodes = estimated;
        movesPlanned.increment(moves);
        splitsRequested.increment(splits);
    }

    static void movesExecuted(int n) {
        BalancerMetrics m = CURRENT.get();
        if (m != null) {
            m.movesExecuted.increment(n);
        }
    }

    Balance lastBalance() {
        PlanResult r = last.get();
        return r == null ? null : r.before().balance();
    }

    MeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        CURRENT.compareAndSet(this, null);
        registry.close();
    }
}
