package io.libra.hbase.balancer;

import java.util.function.Consumer;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.http.ServerConfigurationKeys;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * How the master speaks TLS to the RegionServers' info servers. When {@code hbase.ssl.enabled}
 * is set the info servers serve https only, and the master reads them with the trust store of
 * Hadoop's {@code ssl-client.xml} ({@code ssl.client.truststore.*}), as HBase's and Hadoop's
 * own HTTP clients do; without that file the JVM's default trust store is used.
 */
public final class Tls {
    static final Tls NONE = new Tls(null, null);

    private final SSLSocketFactory sockets;
    private final HostnameVerifier hostnames;

    public Tls(SSLSocketFactory sockets, HostnameVerifier hostnames) {
        this.sockets = sockets;
        this.hostnames = hostnames;
    }

    /** {@code https} when the info servers use TLS, else {@code http}. */
    static String scheme(Configuration conf) {
        return conf.getBoolean(ServerConfigurationKeys.HBASE_SSL_ENABLED_KEY,
                ServerConfigurationKeys.HBASE_SSL_ENABLED_DEFAULT) ? "https" : "http";
    }

    /** The client side of Hadoop's SSL configuration, or the JVM's defaults (reported to {@code problems}). */
    static Tls from(Configuration conf, Consumer<String> problems) {
        if (scheme(conf).equals("http")) {
            return NONE;
        }
        try {
            SSLFactory factory = new SSLFactory(SSLFactory.Mode.CLIENT, conf);
            factory.init();
            return new Tls(factory.createSSLSocketFactory(), factory.getHostnameVerifier());
        } catch (Exception | LinkageError e) {
            problems.accept("hbase.ssl.enabled is set but Hadoop's client SSL configuration ("
                    + conf.get(SSLFactory.SSL_CLIENT_CONF_KEY, "ssl-client.xml") + ") could not be used (" + e
                    + "); reading the RegionServers' reports over https with the JVM's default trust store");
            return NONE;
        }
    }

    void configure(HttpsURLConnection c) {
        if (sockets != null) {
            c.setSSLSocketFactory(sockets);
        }
        if (hostnames != null) {
            c.setHostnameVerifier(hostnames);
        }
    }
}
