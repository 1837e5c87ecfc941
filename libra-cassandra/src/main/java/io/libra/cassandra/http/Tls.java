package io.libra.cassandra.http;

import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.config.StartupException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** The API's optional TLS: Netty's SslHandler with the key and certificate of a keystore. */
public final class Tls {
    private Tls() {
    }

    /** Null when http.tls_keystore is not set; a keystore that cannot be loaded is a one-line StartupException. */
    public static SslContext context(SidecarConfig.Http h) {
        if (h.tlsKeystore == null) {
            return null;
        }
        Path file = Path.of(h.tlsKeystore);
        try (InputStream in = Files.newInputStream(file)) {
            String type = file.getFileName().toString().endsWith(".jks") ? "JKS" : "PKCS12";
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, h.tlsKeystorePassword);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, h.tlsKeystorePassword);
            return SslContextBuilder.forServer(kmf).build();
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
            throw new StartupException("http.tls_keystore: cannot load " + file + ": " + why.lines().findFirst().orElse(why)
                    + " (wrong password in http.tls_keystore_password_env?)");
        }
    }
}
