package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libra snapshot capture over https:// from a JDK HTTPS server whose certificate keytool made
 * (self-signed, so only a trust store holding it trusts it). Passwords come from environment
 * variables that the surefire configuration in libra-cli/pom.xml sets.
 */
class CaptureTlsTest {
    static final String TRUST_PASSWORD_ENV = "LIBRA_TEST_TRUST_PASSWORD";
    static final String WRONG_PASSWORD_ENV = "LIBRA_TEST_WRONG_PASSWORD";
    private static final String SERVER_PASSWORD = "server-pw";

    @TempDir
    static Path dir;

    private static LocalServer master;
    private static Path trust;

    @BeforeAll
    static void start() throws Exception {
        assertThat(System.getenv(TRUST_PASSWORD_ENV)).as("set by surefire in libra-cli/pom.xml").isNotBlank();
        Path server = dir.resolve("server.p12");
        Path cert = dir.resolve("master.crt");
        trust = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "master", "-keyalg", "EC", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-keystore", server.toString(), "-storetype", "PKCS12", "-storepass", SERVER_PASSWORD);
        keytool("-exportcert", "-alias", "master", "-keystore", server.toString(), "-storepass", SERVER_PASSWORD, "-file", cert.toString());
        keytool("-importcert", "-alias", "master", "-file", cert.toString(), "-keystore", trust.toString(), "-storetype", "PKCS12",
                "-storepass", System.getenv(TRUST_PASSWORD_ENV));
        master = LocalServer.https(serverContext(server));
        master.body = HbaseMasterCaptureTest.recorded("snapshot.json");
    }

    @AfterAll
    static void stop() {
        master.close();
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(java.util.stream.Stream.concat(java.util.stream.Stream.of(keytool.toString(), "-noprompt"),
                java.util.stream.Stream.of(args)).toList()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
    }

    private static SSLContext serverContext(Path keyStore) throws Exception {
        KeyStore ks = KeyStore.getInstance(new File(keyStore.toString()), SERVER_PASSWORD.toCharArray());
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, SERVER_PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    private static String url(String scheme) {
        return scheme + "://" + master.address() + HbaseMasterCaptureTest.QUERY;
    }

    private static Cli.Result capture(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("snapshot", "capture", "--timeout", "120"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void withTheCaInATrustStoreItCaptures() throws IOException {
        Path out = dir.resolve("window.json");
        Cli.Result r = capture("--hbase-master", "https://" + master.address(), "--out", out.toString(),
                "--trust-store", trust.toString(), "--trust-store-password-env", TRUST_PASSWORD_ENV);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("captured " + url("https") + ": store generic, 4 nodes, 32 regions");
        assertThat(Files.readString(out)).startsWith("{\n  \"format\" : \"libra.snapshot/v1\"");
    }

    @Test
    void anUntrustedCertificateSaysHowToTrustIt() {
        Cli.Result r = capture("--hbase-master", "https://" + master.address());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url("https") + ": the server's certificate is not trusted (no path to a known CA): "
                + "give the CA that signed it with --trust-store FILE (PKCS12 or JKS) and --trust-store-password-env VAR\n");
    }

    @Test
    void plainHttpToTheTlsPortSaysUseHttps() {
        Cli.Result r = capture("--hbase-master", master.address());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("libra: error: " + url("http") + ": the server speaks TLS on this port: use https://\n");
    }

    @Test
    void aTrustStoreWithoutItsPasswordIsNamed() {
        Cli.Result r = capture("--hbase-master", "https://" + master.address(), "--trust-store", trust.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("libra: --trust-store: " + trust + ": no certificate is readable without the store's password: "
                + "put it in an environment variable and name it with --trust-store-password-env VAR\n");
    }

    @Test
    void aJvmTrustStoreWithoutItsPasswordIsNamed() throws IOException, InterruptedException {
        // JAVA_OPTS=-Djavax.net.ssl.trustStore=... without ...trustStorePassword: the JVM's own trust, so its own JVM
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Djavax.net.ssl.trustStore=" + trust, "-cp", System.getProperty("java.class.path"),
                LibraCli.class.getName(), "snapshot", "capture", "--hbase-master", "https://" + master.address(), "--timeout", "120")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(err).isEqualTo("libra: error: " + url("https") + ": the trust store holds no readable certificate: "
                + "a PKCS12 store needs its password (-Djavax.net.ssl.trustStorePassword, or --trust-store-password-env)\n");
    }

    @Test
    void aWrongPasswordIsNamed() {
        Cli.Result r = capture("--hbase-master", "https://" + master.address(), "--trust-store", trust.toString(),
                "--trust-store-password-env", WRONG_PASSWORD_ENV);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("libra: --trust-store: " + trust + ": wrong password\n");
    }
}
