package io.libra.cli;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where {@code libra snapshot capture} fetches from. A master's {@code /jmx} answer wraps the
 * snapshot in its bean ({@code beans[0].Snapshot}); a sidecar or any other URL serves it bare.
 */
record CaptureSource(URI uri, boolean jmx) {
    static final String SIDECAR_PATH = "/api/v1/snapshot";
    static final String JMX_PATH = "/jmx";
    static final String BEAN = "io.libra:type=BalancerSnapshot";
    static final int MASTER_INFO_PORT = 16010;

    /** --from: a bare http(s)://host:port is the sidecar; a path ending in /jmx is a master's JMX servlet. */
    static CaptureSource from(String text) {
        URI u = parse("--from", text, text.trim());
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/") ? SIDECAR_PATH : u.getRawPath();
        if (path.endsWith(JMX_PATH)) {
            return jmx(u, path, u.getRawQuery());
        }
        return new CaptureSource(build(u, path, u.getRawQuery()), false);
    }

    /** --hbase-master: HOST, HOST:PORT or http(s)://HOST[:PORT]; the port defaults to the master's info port. */
    static CaptureSource hbaseMaster(String text) {
        String t = text.trim();
        URI u = parse("--hbase-master", text, t.contains("://") ? t : "http://" + t);
        if (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/") && !u.getRawPath().equals(JMX_PATH)) {
            throw new BadInputException("libra: --hbase-master: expected HOST[:PORT] or http(s)://HOST[:PORT], got '" + text
                    + "' (use --from for a full URL)");
        }
        try {
            int port = u.getPort() < 0 ? MASTER_INFO_PORT : u.getPort();
            URI withPort = new URI(u.getScheme(), null, u.getHost(), port, null, null, null);
            return jmx(withPort, JMX_PATH, null);
        } catch (URISyntaxException e) {
            throw new BadInputException("libra: --hbase-master: not a host: " + e.getMessage());
        }
    }

    /** The JMX servlet answers every bean for a bare /jmx: ask for Libra's alone. */
    private static CaptureSource jmx(URI u, String path, String query) {
        return new CaptureSource(build(u, path, query == null ? "qry=" + BEAN : query), true);
    }

    private static URI parse(String option, String original, String text) {
        try {
            URI u = new URI(text);
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
                throw new BadInputException("libra: " + option + ": expected an http:// or https:// URL with a host, got '" + original + "'");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new BadInputException("libra: " + option + ": not a URL: " + e.getMessage());
        }
    }

    private static URI build(URI u, String path, String query) {
        try {
            return new URI(u.getScheme(), u.getRawAuthority(), null, null, null).resolve(path + (query == null ? "" : "?" + query));
        } catch (URISyntaxException e) {
            throw new BadInputException("libra: not a URL: " + e.getMessage());
        }
    }
}
