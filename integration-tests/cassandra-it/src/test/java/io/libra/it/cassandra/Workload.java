package io.libra.it.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A paced client load: writes of new keys (remembered once acknowledged) and reads of
 * acknowledged ones, 90% on the RF=1 keyspace and 10% on the RF=3 one. Keys are uniform over
 * the token space, so on an unbalanced ring the RF=1 load follows token ownership.
 */
final class Workload implements AutoCloseable {
    static final int MAX_KEYS_RF1 = 30_000;
    static final int MAX_KEYS_RF3 = 6_000;
    /**
     * Where the first keyspace's keys lie: of the keys whose Murmur3 token is outside {@code hot},
     * only every {@code sparse}-th is written, so the hot arc holds most keys, and so most traffic.
     */
    record Skew(java.util.function.LongPredicate hot, int sparse) {
        static final Skew NONE = new Skew(t -> true, 1);
    }

    /** What to load: two keyspaces (90% / 10% of the operations), a consistency level, key limits, value size, skew. */
    record Spec(String[] keyspaces, ConsistencyLevel cl, long[] maxKeys, int valueBytes, Skew skew) {
        Spec(String[] keyspaces, ConsistencyLevel cl, long[] maxKeys, int valueBytes) {
            this(keyspaces, cl, maxKeys, valueBytes, Skew.NONE);
        }

        static final Spec DEFAULT = new Spec(new String[] {"libra_rf1", "libra_rf3"}, ConsistencyLevel.ONE,
                new long[] {MAX_KEYS_RF1, MAX_KEYS_RF3}, 512);
        /** The default load written and read at ALL, so a node bootstrapped meanwhile misses nothing acknowledged. */
        static final Spec AT_ALL = new Spec(DEFAULT.keyspaces(), ConsistencyLevel.ALL, DEFAULT.maxKeys(), DEFAULT.valueBytes());
    }

    private final Spec spec;
    private final CqlSession session;
    private final int opsPerSecond;
    private final PreparedStatement[] write = new PreparedStatement[2];
    private final PreparedStatement[] read = new PreparedStatement[2];
    final List<List<String>> acked;
    private final AtomicLong[] next;
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    private final Semaphore inFlight = new Semaphore(128);
    private volatile boolean running = true;
    private final Thread thread = new Thread(this::run, "workload");

    Workload(CqlSession session, int opsPerSecond) {
        this(session, opsPerSecond, Spec.DEFAULT);
    }

    Workload(CqlSession session, int opsPerSecond, Spec spec) {
        this(session, opsPerSecond, spec, List.of(Collections.synchronizedList(new ArrayList<>()),
                Collections.synchronizedList(new ArrayList<>())), new AtomicLong[] {new AtomicLong(), new AtomicLong()});
    }

    /** The same load on another session, carrying on with the keys written so far. */
    Workload(CqlSession session, Workload previous) {
        this(session, previous.opsPerSecond, previous.spec, previous.acked, previous.next);
    }

    private Workload(CqlSession session, int opsPerSecond, Spec spec, List<List<String>> acked, AtomicLong[] next) {
        this.session = session;
        this.opsPerSecond = opsPerSecond;
        this.spec = spec;
        this.acked = acked;
        this.next = next;
        String[] ks = spec.keyspaces();
        for (int i = 0; i < 2; i++) {
            write[i] = session.prepare("INSERT INTO " + ks[i] + ".kv (k, v) VALUES (?, ?)");
            read[i] = session.prepare("SELECT k FROM " + ks[i] + ".kv WHERE k = ?");
        }
    }

    String[] keyspaces() {
        return spec.keyspaces().clone();
    }

    void start() {
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        SplittableRandom rnd = new SplittableRandom(42);
        long start = System.nanoTime();
        long interval = TimeUnit.SECONDS.toNanos(1) / opsPerSecond;
        for (long i = 0; running; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            int slot = (int) (i % 20);
            int ks = slot >= 18 ? 1 : 0;
            boolean isWrite = slot < 12 || slot == 18;
            try {
                inFlight.acquire();
            } catch (InterruptedException e) {
                return;
            }
            if (isWrite) {
                write(ks, rnd);
            } else {
                read(ks, rnd);
            }
        }
    }

    private void write(int ks, SplittableRandom rnd) {
        long n = newKey(ks);
        List<String> keys = acked.get(ks);
        String key = n >= 0 ? "key-" + ks + "-" + n : pick(keys, rnd);
        if (key == null) {
            inFlight.release();
            return;
        }
        byte[] value = new byte[spec.valueBytes()];
        rnd.nextBytes(value);
        session.executeAsync(write[ks].bind(key, ByteBuffer.wrap(value)).setConsistencyLevel(spec.cl()))
                .whenComplete((r, e) -> {
                    inFlight.release();
                    if (e == null) {
                        completed.incrementAndGet();
                        if (n >= 0) {
                            keys.add(key);
                        }
                    } else {
                        failed.incrementAndGet();
                    }
                });
    }

    /** The next new key's number (skipping the first keyspace's sparse keys), or -1 once the limit is reached. */
    private long newKey(int ks) {
        long limit = spec.maxKeys()[ks];
        for (long n = next[ks].getAndIncrement(); n < limit; n = next[ks].getAndIncrement()) {
            if (ks > 0 || n % spec.skew().sparse() == 0 || spec.skew().hot().test(Cql.token(session, "key-0-" + n))) {
                return n;
            }
        }
        return -1;
    }

    private void read(int ks, SplittableRandom rnd) {
        String key = pick(acked.get(ks), rnd);
        if (key == null) {
            inFlight.release();
            return;
        }
        session.executeAsync(read[ks].bind(key).setConsistencyLevel(spec.cl())).whenComplete((r, e) -> {
            inFlight.release();
            if (e == null) {
                completed.incrementAndGet();
            } else {
                failed.incrementAndGet();
            }
        });
    }

    private static String pick(List<String> keys, SplittableRandom rnd) {
        synchronized (keys) {
            return keys.isEmpty() ? null : keys.get(rnd.nextInt(keys.size()));
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (!running) {
            return;
        }
        running = false;
        thread.join(10_000);
        if (inFlight.tryAcquire(128, 30, TimeUnit.SECONDS)) {
            inFlight.release(128);
        }
    }
}
