package io.libra.cassandra.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.config.SidecarConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The lease without a reachable native port: {@link Lease.Unavailable} with one line naming the
 * contact points (a job waits on it), never a silent grant.
 */
class CqlLeaseTest {
    @Test
    void noCqlConnectionIsUnavailableNamingTheContactPoints() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        SidecarConfig c = new SidecarConfig();
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.host = "127.0.0.1";
        c.instances = List.of(in);
        c.lease.cqlPort = closed;
        c.lease.owner = "me:9044";
        try (CqlLease lease = new CqlLease(c)) {
            assertThatThrownBy(lease::acquire).isInstanceOf(Lease.Unavailable.class)
                    .hasMessageStartingWith("cannot take the execution lease in libra_sidecar.lease over CQL (127.0.0.1:"
                            + closed + "): ").message().doesNotContain("\n");
            lease.release();
            lease.close();
            assertThat(lease.acquire()).contains("the sidecar is stopping: the execution lease is not taken");
            assertThat(lease.held()).isFalse();
        }
    }

    @Test
    void aLocalDataCentreNoNodeCanNameIsUnavailable() {
        SidecarConfig c = new SidecarConfig();
        c.instances = List.of(new SidecarConfig.Instance());
        c.lease.owner = "me:9044";
        try (CqlLease lease = new CqlLease(c, () -> {
            throw new IllegalStateException("no node answered EndpointSnitchInfo over JMX (set lease.local_datacenter)");
        })) {
            assertThatThrownBy(lease::acquire).isInstanceOf(Lease.Unavailable.class)
                    .hasMessageStartingWith("cannot take the execution lease")
                    .hasMessageEndingWith("no node answered EndpointSnitchInfo over JMX (set lease.local_datacenter)");
        }
    }

    @Test
    void heldAnswersWhileATakeWaitsOnASilentNode() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            SidecarConfig c = new SidecarConfig();
            SidecarConfig.Instance in = new SidecarConfig.Instance();
            in.host = "127.0.0.1";
            c.instances = List.of(in);
            c.lease.cqlPort = silent.getLocalPort();
            c.lease.owner = "me:9044";
            c.lease.localDatacenter = "dc1";
            try (CqlLease lease = new CqlLease(c)) {
                java.util.concurrent.CompletableFuture<Optional<String>> take =
                        java.util.concurrent.CompletableFuture.supplyAsync(lease::acquire);
                java.util.concurrent.CompletableFuture<String> why = take.handle((held, e) -> e == null ? "held"
                        : e.getCause().getMessage());
                try (java.net.Socket accepted = silent.accept()) { // the driver connected and waits for an answer
                    assertThat(lease.held()).isFalse();
                    assertThat(take).as("held() answered before the take ended").isNotDone();
                }
                assertThat(why.get()).startsWith("cannot take the execution lease");
            }
        }
    }
}
