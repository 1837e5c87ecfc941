package io.libra.cassandra.jmx;

import java.io.IOException;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A real JMX connector server (RMI, as Cassandra's) with a StorageService MBean that answers
 * the startup questions: enough for the launcher to start against "a node" in a unit test.
 */
public final class FakeCassandraJmx implements AutoCloseable {
    /** The attributes the startup probe reads. */
    public interface StorageServiceMBean {
        String getOperationMode();

        List<String> getTokens();
    }

    private final Registry registry;
    private final JMXConnectorServer server;
    private final int port;

    public FakeCassandraJmx(List<String> tokens) throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        registry = LocateRegistry.createRegistry(port);
        MBeanServer mbs = MBeanServerFactory.newMBeanServer();
        StorageServiceMBean storage = new StorageServiceMBean() {
            @Override
            public String getOperationMode() {
                return "NORMAL";
            }

            @Override
            public List<String> getTokens() {
                return tokens;
            }
        };
        mbs.registerMBean(new StandardMBean(storage, StorageServiceMBean.class),
                new ObjectName("org.apache.cassandra.db:type=StorageService"));
        server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1/jndi/rmi://127.0.0.1:" + port + "/jmxrmi"), null, mbs);
        server.start();
    }

    public int port() {
        return port;
    }

    @Override
    public void close() throws IOException {
        server.stop();
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException ignored) {
            // already gone
        }
    }
}
