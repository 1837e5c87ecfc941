package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.cassandra.Sidecar;
import io.libra.cassandra.config.ConfigLoader;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.config.StartupException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API over TLS from a keystore made by the JDK's keytool. */
class TlsTest {
    @TempDir
    Path dir;

    private Path keystore() throws Exception {
        Path ks = dir.resolve("api.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "api", "-keyalg", "EC", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", "s3cret!", "-keypass", "s3cret!")
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
        return ks;
    }

    private SidecarConfig config(Path ks, String password) {
        SidecarConfig c = new SidecarConfig();
        SidecarConfig.Instance in = new SidecarConfig.Instance();
        in.id = "n1";
        in.jmxPort = 1;
        c.instances = List.of(in);
        c.http.port = 0;
        c.http.tlsKeystore = ks.toString();
        c.http.tlsKeystorePasswordEnv = "KS_PASS";
        c.execution.journal = dir.resolve("journal.json").toString();
        return ConfigLoader.check(c, "test", Map.of("KS_PASS", password));
    }

    @Test
    void theApiAnswersOverTls() throws Exception {
        Path ks = keystore();
        try (Sidecar s = new Sidecar(config(ks, "s3cret!")).start()) {
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] c, String a) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] c, String a) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            HttpResponse<String> r = HttpClient.newBuilder().sslContext(trustAll).build().send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + s.port() + "/api/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"status\" : \"up\"");
        }
    }

    @Test
    void aWrongPasswordIsOneLineAtStartup() throws Exception {
        Path ks = keystore();
        assertThatThrownBy(() -> new Sidecar(config(ks, "nope")).start()).isInstanceOf(StartupException.class)
                .hasMessageStartingWith("http.tls_keystore: cannot load " + ks + ": ")
                .hasMessageEndingWith("(wrong password in http.tls_keystore_password_env?)");
        assertThatThrownBy(() -> config(dir.resolve("none.p12"), "x")).hasMessage("test: http.tls_keystore: cannot read "
                + dir.resolve("none.p12"));
    }
}
