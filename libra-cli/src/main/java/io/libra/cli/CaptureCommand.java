package io.libra.cli;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Pulls the current window of a running cluster as libra.snapshot/v1 over HTTP, checks it with
 * the same codec as every reader, and keeps its bytes exactly (a plan names them by SHA-256).
 */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {"Saves a libra.snapshot/v1 from a running Libra sidecar or HBase master.",
                "A URL without a path gets the sidecar's /api/v1/snapshot, a URL ending in /jmx (or --hbase-master) "
                        + "the master's io.libra:type=BalancerSnapshot bean, and any other URL is fetched as given. "
                        + "The document is checked before it is written, and written byte for byte."})
final class CaptureCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Option(names = "--from", paramLabel = "URL",
                description = "where to fetch it: http://sidecar-host:9044 (the sidecar), http://master:16010/jmx (an HBase master), "
                        + "or a full URL serving libra.snapshot/v1")
        String from;

        @Option(names = "--hbase-master", paramLabel = "HOST[:PORT]",
                description = "the active HBase master's info server (default port 16010; https://HOST[:PORT] for TLS)")
        String hbaseMaster;
    }

    @Option(names = "--out", paramLabel = "FILE", description = "write the snapshot here (default: print it on stdout)")
    Path out;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "give up after this many seconds (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--token-env", paramLabel = "VAR",
            description = "send the bearer token held in this environment variable (for endpoints that ask for one)")
    String tokenEnv;

    @Option(names = "--trust-store", paramLabel = "FILE",
            description = "for https://: trust the CAs in this PKCS12 or JKS file (default: the JVM's own trust store)")
    Path trustStore;

    @Option(names = "--trust-store-password-env", paramLabel = "VAR",
            description = "the environment variable holding the --trust-store password")
    String trustStorePasswordEnv;

    @Override
    public Integer call() {
        CaptureSource from = source.from != null ? CaptureSource.from(source.from) : CaptureSource.hbaseMaster(source.hbaseMaster);
        if (timeoutSeconds < 1) {
            throw new BadInputException("libra: --timeout: must be >= 1, got " + timeoutSeconds);
        }
        if (trustStorePasswordEnv != null && trustStore == null) {
            throw new BadInputException("libra: --trust-store-password-env: needs --trust-store FILE");
        }
        SSLContext tls = trustStore == null ? null : TrustStore.context(trustStore, trustStorePasswordEnv);
        if (out != null) {
            Inputs.checkWritable(out);
        }
        byte[] answer = new SnapshotFetch(Duration.ofSeconds(timeoutSeconds), tls, token()).get(from.uri());
        byte[] body = from.jmx() ? JmxSnapshot.unwrap(from.uri(), answer) : answer;
        ClusterSnapshot snap = SnapshotCodec.read(from.uri() + (from.jmx() ? " beans[0]." + JmxSnapshot.FIELD : ""), body);
        if (out == null) {
            spec.commandLine().getOut().print(new String(body, StandardCharsets.UTF_8));
        } else {
            Inputs.writeAtomically(out, body);
            spec.commandLine().getOut().printf("captured %s: store %s, %d nodes, %d regions, window %.0f s, sha256 %s -> %s%n",
                    from.uri(), snap.store(), snap.nodes().size(), snap.regions().size(), snap.windowSeconds(),
                    SnapshotCodec.sha256(body).substring(0, 12), out);
        }
        spec.commandLine().getOut().flush();
        return LibraCli.OK;
    }

    private String token() {
        if (tokenEnv == null) {
            return null;
        }
        String t = System.getenv(tokenEnv);
        if (t == null || t.isBlank()) {
            throw new BadInputException("libra: --token-env: the environment variable " + tokenEnv + " is not set");
        }
        return t.trim();
    }
}
