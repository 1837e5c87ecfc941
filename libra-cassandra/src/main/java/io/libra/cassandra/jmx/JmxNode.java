package io.libra.cassandra.jmx;

import io.libra.cassandra.config.SidecarConfig;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * One JMX connection to one Cassandra node, opened lazily and dropped on any I/O failure so
 * the next call reconnects (a node that was stopped and restarted is picked up again).
 */
public final class JmxNode implements AutoCloseable {
    private final SidecarConfig.Instance instance;
    private JMXConnector connector;
    private MBeanServerConnection connection;

    public JmxNode(SidecarConfig.Instance instance) {
        this.instance = instance;
    }

    public SidecarConfig.Instance instance() {
        return instance;
    }

    public String id() {
        return instance.id;
    }

    public String url() {
        return "service:jmx:rmi:///jndi/rmi://" + instance.jmxHostOrHost() + ":" + instance.jmxPort + "/jmxrmi";
    }

    private synchronized MBeanServerConnection connection() throws IOException {
        if (connection == null) {
            Map<String, Object> env = new HashMap<>();
            if (instance.jmxUsername != null) {
                env.put(JMXConnector.CREDENTIALS, new String[] {instance.jmxUsername, instance.jmxPassword});
            }
            if (instance.jmxSsl) {
                SslRMIClientSocketFactory ssl = new SslRMIClientSocketFactory();
                env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, ssl);
                env.put("com.sun.jndi.rmi.factory.socket", ssl);
            }
            JMXConnector c;
            try {
                c = JMXConnectorFactory.connect(new JMXServiceURL(url()), env);
            } catch (IOException | SecurityException e) {
                throw new IOException("cannot connect to JMX at " + instance.jmxHostOrHost() + ":" + instance.jmxPort
                        + ": " + rootMessage(e), e);
            }
            try {
                connection = c.getMBeanServerConnection();
                connector = c;
            } catch (IOException e) {
                c.close();
                throw e;
            }
        }
        return connection;
    }

    private IOException unreachable(IOException e) {
        return new IOException("JMX at " + instance.jmxHostOrHost() + ":" + instance.jmxPort + ": " + rootMessage(e), e);
    }

    private String jmxError(String what, JMException e) {
        if (e instanceof javax.management.InstanceNotFoundException) {
            return id() + ": " + what + ": MBean not registered (is the node still starting?)";
        }
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return id() + ": " + what + ": " + rootMessage(cause);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    public Object get(String objectName, String attribute) throws IOException {
        try {
            return connection().getAttribute(new ObjectName(objectName), attribute);
        } catch (IOException e) {
            drop();
            throw unreachable(e);
        } catch (JMException e) {
            throw new IOException(jmxError(attribute, e), e);
        }
    }

    public void set(String objectName, String attribute, Object value) throws IOException {
        try {
            connection().setAttribute(new ObjectName(objectName), new javax.management.Attribute(attribute, value));
        } catch (IOException e) {
            drop();
            throw unreachable(e);
        } catch (JMException e) {
            throw new IOException(jmxError("set " + attribute, e), e);
        }
    }

    public Object invoke(String objectName, String operation, Object[] args, String[] signature) throws IOException {
        try {
            return connection().invoke(new ObjectName(objectName), operation, args, signature);
        } catch (IOException e) {
            drop();
            throw unreachable(e);
        } catch (JMException e) {
            throw new IOException(jmxError(operation, e), e);
        }
    }

    public Set<ObjectName> query(String pattern) throws IOException {
        try {
            return connection().queryNames(new ObjectName(pattern), null);
        } catch (IOException e) {
            drop();
            throw unreachable(e);
        } catch (JMException e) {
            throw new IOException(jmxError("query " + pattern, e), e);
        }
    }

    public synchronized void drop() {
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException ignored) {
                // the connection is already gone; nothing to release
            }
        }
        connector = null;
        connection = null;
    }

    @Override
    public void close() {
        drop();
    }
}
