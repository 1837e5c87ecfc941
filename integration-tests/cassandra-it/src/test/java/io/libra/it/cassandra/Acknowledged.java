package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every write a workload saw acknowledged must read back. */
final class Acknowledged {
    private static final Logger LOG = LoggerFactory.getLogger(Acknowledged.class);

    private Acknowledged() {
    }

    static void readBack(CqlSession s, Workload load, ConsistencyLevel cl) throws Exception {
        String[] ks = load.keyspaces();
        for (int i = 0; i < 2; i++) {
            PreparedStatement read = s.prepare("SELECT k FROM " + ks[i] + ".kv WHERE k = ?");
            List<String> keys;
            synchronized (load.acked.get(i)) {
                keys = new ArrayList<>(load.acked.get(i));
            }
            AtomicLong missing = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            Semaphore permits = new Semaphore(128);
            List<CompletableFuture<AsyncResultSet>> pending = new ArrayList<>();
            for (String k : keys) {
                permits.acquire();
                CompletionStage<AsyncResultSet> f = s.executeAsync(read.bind(k).setConsistencyLevel(cl));
                pending.add(f.toCompletableFuture().whenComplete((r, e) -> {
                    permits.release();
                    if (e != null) {
                        errors.incrementAndGet();
                    } else if (r.one() == null) {
                        missing.incrementAndGet();
                    }
                }));
            }
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get(5, TimeUnit.MINUTES);
            LOG.info("{}: {} acknowledged keys read back at {}, {} missing, {} errors", ks[i], keys.size(), cl, missing, errors);
            assertThat(keys).isNotEmpty();
            assertThat(missing.get()).as(ks[i] + " keys lost").isZero();
            assertThat(errors.get()).as(ks[i] + " reads failed").isZero();
        }
    }
}
