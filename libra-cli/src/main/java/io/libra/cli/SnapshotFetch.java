package io.libra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

/**
 * One GET with the JDK's HTTP client; every way it can fail becomes one line naming the URL and the remedy.
 * {@code tls} null: the JVM's default trust (its cacerts, or -Djavax.net.ssl.trustStore); {@code token} null: none sent.
 */
record SnapshotFetch(Duration timeout, SSLContext tls, String token) {
    byte[] get(URI uri) {
        // HTTP/1.1 only: the master's Jetty and the sidecar speak it, and an h2c upgrade offer is one more thing to go wrong
        HttpClient.Builder client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL);
        if (tls != null) {
            client.sslContext(tls);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<byte[]> response;
        try {
            response = client.build().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw failure(uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(uri + ": interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + ": HTTP " + response.statusCode() + refusal(uri, response));
        }
        return response.body();
    }

    private RuntimeException failure(URI uri, IOException e) {
        if (e instanceof HttpTimeoutException) {
            return new IllegalStateException(uri + ": no answer within " + timeout.toSeconds() + " s (--timeout)", e);
        }
        if (has(e, UnresolvedAddressException.class)) {
            return new IllegalStateException(uri + ": unknown host '" + uri.getHost() + "'", e);
        }
        if (e instanceof ConnectException) {
            return new IllegalStateException(uri + ": cannot connect (is the sidecar or master running, and this its address?)", e);
        }
        if (has(e, InvalidAlgorithmParameterException.class)) {
            return new IllegalStateException(uri + ": the trust store holds no readable certificate: "
                    + "a PKCS12 store needs its password (-Djavax.net.ssl.trustStorePassword, or --trust-store-password-env)", e);
        }
        if (has(e, CertPathBuilderException.class)) {
            return new IllegalStateException(uri + ": the server's certificate is not trusted (no path to a known CA): "
                    + "give the CA that signed it with --trust-store FILE (PKCS12 or JKS) and --trust-store-password-env VAR", e);
        }
        if (e instanceof SSLHandshakeException && has(e, CertificateException.class)) {
            return new IllegalStateException(uri + ": the server's certificate does not match '" + uri.getHost()
                    + "': use the host name the certificate names", e);
        }
        if ("http".equals(uri.getScheme()) && speaksTls(uri)) {
            return new IllegalStateException(uri + ": the server speaks TLS on this port: use https://", e);
        }
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new IllegalStateException(uri + ": " + m, e);
    }

    /** After a plain-HTTP request failed: does a TLS handshake get a server certificate back? */
    private boolean speaksTls(URI uri) {
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        try (SSLSocket socket = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.startHandshake();
            return true;
        } catch (SSLHandshakeException e) {
            return has(e, CertificateException.class) || has(e, CertPathBuilderException.class);
        } catch (IOException | java.security.GeneralSecurityException e) {
            return false;
        }
    }

    /** The server's reason; for a Kerberos (SPNEGO) 401, what to do instead, since libra does not speak it. */
    private static String refusal(URI uri, HttpResponse<byte[]> response) {
        boolean negotiate = response.headers().allValues("WWW-Authenticate").stream()
                .anyMatch(v -> v.toLowerCase(Locale.ROOT).startsWith("negotiate"));
        if (response.statusCode() == 401 && negotiate) {
            return ": the server asks for Kerberos (SPNEGO), which libra does not do: kinit, then "
                    + "curl --negotiate -u : '" + uri + "' | jq -r '.beans[0].Snapshot' > window.json, and plan from that file";
        }
        return errorText(response.body());
    }

    /** The server's own one-line reason: the sidecar answers {"error": "..."}, HBase's /jmx {"message": "..."}. */
    static String errorText(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        try {
            JsonNode doc = new ObjectMapper().readTree(text);
            JsonNode reason = doc.path("error").isTextual() ? doc.path("error") : doc.path("message");
            if (reason.isTextual()) {
                text = reason.asText();
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: show the text itself
        }
        String line = text.lines().findFirst().orElse("");
        return line.isBlank() ? "" : ": " + (line.length() > 200 ? line.substring(0, 200) + "…" : line);
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
