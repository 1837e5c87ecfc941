package io.libra.cassandra.exec;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.libra.cassandra.config.SidecarConfig;
import java.net.InetSocketAddress;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease as one row per ring ({@code cluster_name}) in {@code <keyspace>.lease}, written with
 * lightweight transactions at SERIAL / QUORUM: INSERT … IF NOT EXISTS takes it, UPDATE … IF owner
 * renews it, DELETE … IF owner gives it up, and its TTL lets it lapse when a holder dies. While
 * held it is renewed every third of the TTL, so a long move does not lose it. The keyspace and
 * table are created on first use when missing (NetworkTopologyStrategy, up to 3 replicas per data
 * centre), so a quorum survives one node down.
 */
public final class CqlLease implements Lease {
    private static final Logger LOG = LoggerFactory.getLogger(CqlLease.class);
    private final SidecarConfig.Lease config;
    private final String ring;
    private final List<InetSocketAddress> contactPoints;
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "libra-lease-renewer");
        t.setDaemon(true);
        return t;
    });
    private CqlSession session;
    /** Non-null while held; volatile so that {@link #held} (/status, a gauge) never waits on a CQL round trip. */
    private volatile ScheduledFuture<?> renewing;
    private boolean closed;

    /** The driver's local data centre when lease.local_datacenter is not set (null: inferred from the contact points). */
    private final Supplier<String> localDatacenter;

    public CqlLease(SidecarConfig config) {
        this(config, null);
    }

    /** With where to find the local data centre (a node's snitch) when lease.local_datacenter is not set. */
    public CqlLease(SidecarConfig config, Supplier<String> localDatacenter) {
        this.localDatacenter = config.lease.localDatacenter != null ? () -> config.lease.localDatacenter : localDatacenter;
        this.config = config.lease;
        this.ring = config.clusterName;
        this.contactPoints = config.instances.stream()
                .map(in -> InetSocketAddress.createUnresolved(in.host, config.lease.cqlPort)).toList();
    }

    @Override
    public synchronized Optional<String> acquire() {
        if (closed) {
            return Optional.of("the sidecar is stopping: the execution lease is not taken");
        }
        try {
            CqlSession s = session();
            ResultSet taken = s.execute(lwt("INSERT INTO " + table() + " (ring, owner, since) VALUES (?, ?, toTimestamp(now()))"
                    + " IF NOT EXISTS USING TTL " + config.ttlSeconds, ring, config.owner));
            if (taken.wasApplied() || renewed(s)) {
                keepRenewing();
                return Optional.empty();
            }
            stopRenewing(); // another sidecar holds it now: this one lost it
            Row holder = taken.one();
            return Optional.of("the execution lease on ring " + ring + " is held by " + (holder == null ? "another sidecar"
                    : holder.getString("owner") + " (since " + holder.getInstant("since") + ")")
                    + "; it lapses " + config.ttlSeconds + " s after that sidecar stops renewing it (lease.ttl_seconds)");
        } catch (RuntimeException e) {
            throw new Unavailable("cannot take the execution lease in " + config.keyspace + ".lease over CQL ("
                    + contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(", "))
                    + "): " + RingGate.firstLine(e), e);
        }
    }

    private boolean renewed(CqlSession s) {
        return s.execute(lwt("UPDATE " + table() + " USING TTL " + config.ttlSeconds
                + " SET owner = ?, since = toTimestamp(now()) WHERE ring = ? IF owner = ?", config.owner, ring, config.owner))
                .wasApplied();
    }

    private void keepRenewing() {
        if (renewing == null) {
            long every = Math.max(1, config.ttlSeconds / 3);
            renewing = renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.SECONDS);
        }
    }

    private void stopRenewing() {
        ScheduledFuture<?> r = renewing;
        if (r != null) {
            r.cancel(false);
            renewing = null;
        }
    }

    private synchronized void renew() {
        if (renewing == null) {
            return;
        }
        try {
            acquire().ifPresent(why -> LOG.warn("lease not renewed: {}", why));
        } catch (Unavailable e) {
            LOG.warn("lease not renewed (asked again in {} s): {}", Math.max(1, config.ttlSeconds / 3), e.getMessage());
        }
    }

    @Override
    public boolean held() {
        return renewing != null;
    }

    @Override
    public synchronized void release() {
        if (renewing == null) {
            return;
        }
        stopRenewing();
        try {
            session().execute(lwt("DELETE FROM " + table() + " WHERE ring = ? IF owner = ?", ring, config.owner));
        } catch (RuntimeException e) {
            LOG.warn("lease not released (it lapses after {} s): {}", config.ttlSeconds, RingGate.firstLine(e));
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        stopRenewing();
        renewer.shutdownNow();
        if (session != null) {
            session.close();
            session = null;
        }
    }

    private String table() {
        return config.keyspace + ".lease";
    }

    private static SimpleStatement lwt(String cql, Object... values) {
        return SimpleStatement.newInstance(cql, values).setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL);
    }

    private CqlSession session() {
        if (session == null || session.isClosed()) {
            session = connect();
            schema(session);
        }
        return session;
    }

    private CqlSession connect() {
        String dc = localDatacenter == null ? null : localDatacenter.get();
        DriverConfigLoader loader = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS,
                        dc == null ? "DcInferringLoadBalancingPolicy" : "DefaultLoadBalancingPolicy")
                .build();
        CqlSessionBuilder b = CqlSession.builder().withConfigLoader(loader)
                .addContactPoints(contactPoints.stream().map(a -> new InetSocketAddress(a.getHostString(), a.getPort())).toList());
        if (dc != null) {
            b.withLocalDatacenter(dc);
        }
        if (config.username != null) {
            b.withAuthCredentials(config.username, config.password);
        }
        if (config.ssl) {
            try {
                b.withSslContext(SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("no default TLS context: " + e.getMessage(), e);
            }
        }
        return b.build();
    }

    /** Creates the keyspace and table when missing; the driver waits for schema agreement after each. */
    private void schema(CqlSession s) {
        if (s.getMetadata().getKeyspace(CqlIdentifier.fromCql(config.keyspace)).isEmpty()) {
            s.execute("CREATE KEYSPACE IF NOT EXISTS " + config.keyspace + " WITH replication = " + replication(s));
        }
        s.execute("CREATE TABLE IF NOT EXISTS " + table() + " (ring text PRIMARY KEY, owner text, since timestamp)");
    }

    /** NetworkTopologyStrategy with min(3, nodes) replicas in every data centre the driver sees. */
    private static String replication(CqlSession s) {
        Map<String, Integer> perDc = new TreeMap<>();
        for (Node n : s.getMetadata().getNodes().values()) {
            perDc.merge(n.getDatacenter(), 1, Integer::sum);
        }
        return perDc.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "'%s': %d", e.getKey(), Math.min(3, e.getValue())))
                .collect(Collectors.joining(", ", "{'class': 'NetworkTopologyStrategy', ", "}"));
    }
}
