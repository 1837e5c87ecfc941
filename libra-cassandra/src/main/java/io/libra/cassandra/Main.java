package io.libra.cassandra;

import io.libra.cassandra.allocator.CassandraAllocator;
import io.libra.cassandra.config.ConfigException;
import io.libra.cassandra.config.ConfigLoader;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.config.StartupException;
import io.libra.cassandra.http.AllocatorComparison;
import io.libra.cassandra.http.Json;
import io.libra.core.ring.AddNodeAdvisor;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code libra-sidecar --config sidecar.yaml}: starts the daemon, or exits at once with one
 * line and a non-zero code (2: usage or config; 1: the port, the journal or JMX).
 */
@Command(name = "libra-sidecar", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Measures a Cassandra ring's CPU and disk load over JMX, plans token moves",
            "that balance both, and runs them when asked (dry run by default).",
            "Documentation: docs/cassandra.md"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by a signal after a clean start, --check passed, or advice printed",
            "1:cannot start: the port is taken, the journal directory is not writable, or no node answers over JMX",
            "2:bad usage, a bad config file, or a snapshot the advisor cannot use"})
public final class Main implements Callable<Integer> {
    static final int STARTUP_FAILED = 1;
    static final int BAD_CONFIG = 2;
    private static final String NAME = "libra-sidecar";

    @Option(names = "--config", paramLabel = "FILE",
            description = "The YAML config file (every field: sidecar.example.yaml). Required unless --advise-add-node.")
    Path config;

    @Option(names = "--advise-add-node", paramLabel = "SNAPSHOT",
            description = "Offline: print the initial_token advice for joining nodes on this libra.snapshot/v1 "
                    + "(GET /api/v1/snapshot of a single-token ring) as JSON, then exit. No daemon starts.")
    Path adviseAddNode;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1",
            description = "With --advise-add-node: how many nodes will join (1 to " + AddNodeAdvisor.MAX_COUNT
                    + ", default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--tokens", paramLabel = "T1,T2,...", defaultValue = "",
            description = "With --advise-add-node: also weigh these tokens (an initial_token line's value) for one "
                    + "joining node by the same model, e.g. those a node started with "
                    + "allocate_tokens_for_local_replication_factor took.")
    String tokens;

    @Option(names = "--cassandra-home", paramLabel = "DIR",
            description = "With --advise-add-node: also run Cassandra's own token allocator from this installation "
                    + "(the directory holding its jar, or its lib/) and weigh its tokens by the same model "
                    + "(cassandraAllocator), as advice.cassandra_home does for the daemon.")
    Path cassandraHome;

    @Option(names = "--allocator-rf", paramLabel = "RF", defaultValue = "3",
            description = "With --cassandra-home: the joining nodes' allocate_tokens_for_local_replication_factor "
                    + "(default ${DEFAULT-VALUE}, as cassandra.yaml ships).")
    int allocatorRf;

    @Option(names = "--check", description = "Check the config, the journal directory, the port and JMX, then exit "
            + "(0 when the daemon would start).")
    boolean check;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private final PrintWriter out;
    private final PrintWriter err;
    private Sidecar sidecar;

    Main(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws InterruptedException {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Main main = new Main(out, err);
        int code = commandLine(main, out, err).execute(args);
        if (code != 0 || main.sidecar == null) {
            System.exit(code);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(main::stop, "libra-shutdown"));
        main.stopped.await();
    }

    static CommandLine commandLine(Main main, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(main);
        cl.setOut(out);
        cl.setErr(err);
        // one line for a usage mistake, not the whole help text
        cl.setParameterExceptionHandler((e, args) -> {
            err.println(NAME + ": " + e.getMessage() + " (see " + NAME + " --help)");
            return BAD_CONFIG;
        });
        return cl;
    }

    @Override
    public Integer call() {
        if (adviseAddNode != null) {
            return advise();
        }
        if (config == null) {
            err.println(NAME + ": --config=FILE is required (see " + NAME + " --help)");
            return BAD_CONFIG;
        }
        SidecarConfig c;
        try {
            c = ConfigLoader.load(config);
        } catch (ConfigException e) {
            err.println(NAME + ": " + e.getMessage());
            return BAD_CONFIG;
        }
        Sidecar s;
        try {
            s = new Sidecar(c).start(true);
        } catch (StartupException | ConfigException e) {
            err.println(NAME + ": " + e.getMessage());
            return STARTUP_FAILED;
        }
        out.println(NAME + ": " + startedLine(s, c));
        if (check) {
            s.close();
            out.println(NAME + ": --check passed");
            return 0;
        }
        sidecar = s;
        return 0;
    }

    /** The add-node advice on a saved snapshot, estimated as the daemon does by default. */
    private int advise() {
        if (count < 1 || count > AddNodeAdvisor.MAX_COUNT) {
            err.println(NAME + ": --count: must be from 1 to " + AddNodeAdvisor.MAX_COUNT + ", got " + count);
            return BAD_CONFIG;
        }
        SidecarConfig.Advice allocator = new SidecarConfig.Advice();
        if (cassandraHome != null) {
            Optional<String> why = CassandraAllocator.problem(cassandraHome);
            if (why.isPresent() || allocatorRf < 1) {
                err.println(NAME + ": " + why.map(w -> "--cassandra-home: " + w)
                        .orElse("--allocator-rf: must be > 0, got " + allocatorRf));
                return BAD_CONFIG;
            }
            allocator.cassandraHome = cassandraHome.toString();
            allocator.allocatorReplicationFactor = allocatorRf;
        }
        try {
            out.println(Json.MAPPER.writeValueAsString(AddNodeAdvice.of(adviseAddNode, count,
                    new SidecarConfig().planner.slicesPerSubrange, tokens, AllocatorComparison.of(allocator))));
            return 0;
        } catch (IllegalArgumentException e) {
            err.println(NAME + ": " + e.getMessage());
            return BAD_CONFIG;
        } catch (java.io.IOException e) {
            err.println(NAME + ": " + adviseAddNode + ": cannot read: " + e.getMessage());
            return BAD_CONFIG;
        }
    }

    /** What an operator needs at once: where the API is, who answered, and when the first window comes. */
    static String startedLine(Sidecar s, SidecarConfig c) {
        String at = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault()).format(s.firstWindowAt());
        String down = s.jmxAtStart().failures().isEmpty() ? "" : " (not answering: " + s.jmxAtStart().failuresLine() + ")";
        return "listening on " + (c.http.tlsKeystore != null ? "https://" : "http://") + c.http.host + ":" + s.port() + "; JMX answers on "
                + s.jmxAtStart().reachable().size() + "/" + c.instances.size() + " node(s)" + down
                + (s.observeOnly() ? "; vnode ring: observe-only" : "")
                + "; the first window ends at about " + at + " (collection.window_seconds: "
                + c.collection.windowSeconds + "); " + (c.execution.dryRun ? "dry run" : "LIVE: rebalance jobs move tokens")
                + (c.http.authToken == null ? "; POST calls are refused (no http.auth_token)" : "");
    }

    /** Whether a daemon was left running by {@link #call()}. */
    Sidecar sidecar() {
        return sidecar;
    }

    void stop() {
        if (sidecar != null) {
            sidecar.close();
        }
        stopped.countDown();
    }

    /** The version from the jar's manifest (set by the build), or "dev" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {NAME + " " + (v == null ? "dev" : v), "API: /api/v1, plans: libra.plan/v1",
                "Java " + System.getProperty("java.version")};
        }
    }
}
