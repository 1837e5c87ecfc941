package io.libra.it.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.libra.it.Poll;
import java.net.InetSocketAddress;
import java.time.Duration;

/** Driver sessions and schema for the ITs' rings. */
final class Cql {
    private Cql() {
    }

    /** A session that reconnects fast to nodes the ITs stop and start (SimpleSnitch's datacenter1). */
    static CqlSession session() {
        return session("datacenter1");
    }

    /** The same, for a ring whose snitch names the data centre {@code dc}. */
    static CqlSession session(String dc) {
        DriverConfigLoader cfg = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .build();
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", 9042))
                .withLocalDatacenter(dc).withConfigLoader(cfg).build();
    }

    /** The Murmur3 token of a text partition key, as the driver computes it (CassandraSidecarIT checks it against the server's). */
    static long token(CqlSession s, String key) {
        com.datastax.oss.driver.api.core.metadata.TokenMap map = s.getMetadata().getTokenMap().orElseThrow();
        java.nio.ByteBuffer bytes = com.datastax.oss.driver.api.core.type.codec.TypeCodecs.TEXT.encode(key,
                com.datastax.oss.driver.api.core.ProtocolVersion.DEFAULT);
        return Long.parseLong(map.format(map.newToken(bytes)).replaceAll("[^0-9-]", ""));
    }

    /**
     * One keyspace per replication factor, named libra_rf{rf}, each with a kv table: RF 3 by
     * NetworkTopologyStrategy in datacenter1 (SimpleSnitch: one data centre, one rack), the others
     * by SimpleStrategy, so the sidecar reads and plans on both strategies.
     */
    static void keyspaces(CqlSession s, int... replicationFactors) {
        for (int rf : replicationFactors) {
            s.execute("CREATE KEYSPACE libra_rf" + rf + " WITH replication = " + replication(rf));
            s.execute("CREATE TABLE libra_rf" + rf + ".kv (k text PRIMARY KEY, v blob)");
        }
        Poll.until(Duration.ofSeconds(60), "schema agreement", () -> s.checkSchemaAgreement());
    }

    private static String replication(int rf) {
        return rf == 3 ? "{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}"
                : "{'class': 'SimpleStrategy', 'replication_factor': " + rf + "}";
    }
}
