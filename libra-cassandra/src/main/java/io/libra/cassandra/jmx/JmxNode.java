package io.libra.cassandra.jmx;

import io.libra.cassandra.config.SidecarConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * JMX over RMI has no timeouts of its own, so every call runs on a worker thread and is given
 * up after the connect or call limit: the connection is then dropped, which also frees the
 * worker blocked in it.
 */
public final class JmxNode implements AutoCloseable {
    private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "libra-jmx-call");
        t.setDaemon(true);
        return t;
    });
    private final SidecarConfig.Instance instance;
    private final Duration connectTimeout;
    private final Duration callTimeout;
    private JMXConnector connector;
    private MBeanServerConnection connection;

    public JmxNode(SidecarConfig.Instance instance) {
        this(instance, new SidecarConfig.Jmx());
    }

    public JmxNode(SidecarConfig.Instance instance, SidecarConfig.Jmx limits) {
        this.instance = instance;
        this.connectTimeout = Duration.ofSeconds(limits.connectTimeoutSeconds);
        this.callTimeout = Duration.ofSeconds(limits.callTimeoutSeconds);
    }

    public SidecarConfig.Instance instance() {
        return instance;
    }

    public String id() {
        return instance.id;
    }

    /** "127.0.0.1:7100", for messages. */
    public String address() {
        return instance.jmxHostOrHost() + ":" + instance.jmxPort;
    }

    /** True when the daemon runs on this node's host: configured, or a loopback JMX address. */
    public boolean colocated() {
        if (instance.colocated != null) {
            return instance.colocated;
        }
        try {
            return java.net.InetAddress.getByName(instance.jmxHostOrHost()).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    public String url() {
        return "service:jmx:rmi:///jndi/rmi://" + address() + "/jmxrmi";
    }

    /** A call that may block on the network. */
    @FunctionalInterface
    public interface Call<T> {
        T run(MBeanServerConnection c) throws IOException, JMException;
    }

    private MBeanServerConnection connection() throws IOException {
        synchronized (this) {
            if (connection != null) {
                return connection;
            }
        }
        Map<String, Object> env = new HashMap<>();
        if (instance.jmxUsername != null) {
            env.put(JMXConnector.CREDENTIALS, new String[] {instance.jmxUsername, instance.jmxPassword});
        }
        if (instance.jmxSsl) {
            SslRMIClientSocketFactory ssl = new SslRMIClientSocketFactory();
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, ssl);
            env.put("com.sun.jndi.rmi.factory.socket", ssl);
        }
        Future<JMXConnector> f = CALLS.submit(() -> JMXConnectorFactory.connect(new JMXServiceURL(url()), env));
        JMXConnector c;
        try {
            c = await(f, connectTimeout);
        } catch (TimeoutException e) {
            abandon(f);
            throw new IOException("cannot connect to JMX at " + address() + ": no answer within "
                    + connectTimeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IOException("cannot connect to JMX at " + address() + ": " + rootMessage(e.getCause()), e.getCause());
        }
        synchronized (this) {
            try {
                connection = c.getMBeanServerConnection();
                connector = c;
            } catch (IOException e) {
                c.close();
                throw unreachable(e);
            }
            return connection;
        }
    }

    /** A connector that arrives after its caller gave up is closed, not leaked. */
    private static void abandon(Future<JMXConnector> f) {
        if (!f.cancel(true)) {
            return;
        }
        CALLS.submit(() -> {
            try {
                f.get().close();
            } catch (CancellationException | ExecutionException | InterruptedException | IOException ignored) {
                // nothing was connected, or it is gone already
            }
            return null;
        });
    }

    private static <T> T await(Future<T> f, Duration limit) throws TimeoutException, ExecutionException,
            InterruptedIOException {
        try {
            return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for JMX");
        }
    }

    /** Runs one call within the call limit; names the node and the call in every failure. */
    public <T> T call(String what, Call<T> call) throws IOException {
        return call(what, callTimeout, call);
    }

    /** Runs one call within {@code limit} (a blocking operation such as cleanup may get longer). */
    public <T> T call(String what, Duration limit, Call<T> call) throws IOException {
        MBeanServerConnection c = connection();
        Future<T> f = CALLS.submit(() -> call.run(c));
        try {
            return await(f, limit);
        } catch (TimeoutException e) {
            f.cancel(true);
            drop();
            throw new IOException("JMX at " + address() + ": " + what + ": no answer within " + limit.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof JMException j) {
                throw new IOException(jmxError(what, j), j);
            }
            if (cause instanceof IOException io) {
                drop();
                throw unreachable(io);
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(id() + ": " + what + ": " + rootMessage(cause), cause);
        }
    }

    private IOException unreachable(IOException e) {
        return new IOException("JMX at " + address() + ": " + rootMessage(e), e);
    }

    private String jmxError(String what, JMException e) {
        if (e instanceof javax.management.InstanceNotFoundException) {
            return id() + ": " + what + ": MBean not registered (is the node still starting?)";
        }
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return id() + ": " + what + ": " + rootMessage(cause);
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    public Object get(String objectName, String attribute) throws IOException {
        return call(attribute, c -> c.getAttribute(new ObjectName(objectName), attribute));
    }

    public void set(String objectName, String attribute, Object value) throws IOException {
        call("set " + attribute, c -> {
            c.setAttribute(new ObjectName(objectName), new javax.management.Attribute(attribute, value));
            return null;
        });
    }

    public Object invoke(String objectName, String operation, Object[] args, String[] signature) throws IOException {
        return invoke(objectName, operation, args, signature, callTimeout);
    }

    public Object invoke(String objectName, String operation, Object[] args, String[] signature, Duration limit)
            throws IOException {
        return call(operation, limit, c -> c.invoke(new ObjectName(objectName), operation, args, signature));
    }

    public Set<ObjectName> query(String pattern) throws IOException {
        return call("query " + pattern, c -> c.queryNames(new ObjectName(pattern), null));
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
