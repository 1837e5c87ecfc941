package io.libra.cassandra.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.config.SidecarConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JmxNodeTest {
    private static SidecarConfig.Instance at(int port) {
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.id = "n1";
        in.jmxPort = port;
        return in;
    }

    /** A port that accepts and never answers (a hung node, a firewall that black-holes): the connect limit ends it. */
    @Test
    void aNodeThatNeverAnswersTimesOut() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            accept.setDaemon(true);
            accept.start();
            SidecarConfig.Jmx limits = new SidecarConfig.Jmx();
            limits.connectTimeoutSeconds = 1;
            try (JmxNode node = new JmxNode(at(silent.getLocalPort()), limits)) {
                assertThatThrownBy(() -> node.get(CassandraNode.STORAGE, "OperationMode"))
                        .isInstanceOf(IOException.class)
                        .hasMessage("cannot connect to JMX at 127.0.0.1:" + silent.getLocalPort() + ": no answer within 1 s");
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aClosedPortIsOneLine() {
        try (JmxNode node = new JmxNode(at(1))) {
            assertThatThrownBy(() -> node.get(CassandraNode.STORAGE, "OperationMode")).isInstanceOf(IOException.class)
                    .hasMessageStartingWith("cannot connect to JMX at 127.0.0.1:1: ").hasMessageNotContaining("\n");
        }
    }

    @Test
    void theProbeReportsModeAndTokensOfEveryNode() throws Exception {
        try (FakeCassandraJmx fake = new FakeCassandraJmx(List.of("1", "2", "3", "4"))) {
            SidecarConfig.Instance down = at(1);
            down.id = "n2";
            CassandraNode up = new CassandraNode(new JmxNode(at(fake.port())));
            JmxProbe.Report r = JmxProbe.probe(List.of(up, new CassandraNode(new JmxNode(down))));
            assertThat(r.reachable()).containsOnlyKeys("n1");
            assertThat(r.reachable().get("n1")).isEqualTo(new JmxProbe.Answer("NORMAL", 4));
            assertThat(r.vnodes()).isTrue();
            assertThat(r.failuresLine()).startsWith("n2: cannot connect to JMX at 127.0.0.1:1: ");
            up.jmx().close();
        }
    }
}
