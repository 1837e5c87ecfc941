package io.libra.it.cassandra;

import io.libra.cassandra.config.ConfigLoader;
import io.libra.cassandra.config.SidecarConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The sidecar config every IT writes, in one place: node i (1-based) is 127.0.0.i with JMX on
 * 127.0.0.1:7i00 (as {@link NodeProcess} starts it); each IT sets only what it tests.
 */
final class ItSidecarConfig {
    private final int nodes;
    private final String auth;
    private int port;
    private Boolean colocated;
    private String collection = "window_seconds: 12, min_samples: 200, subranges_per_arc: 8";
    private String planner = "lambda: 0.05, max_moves: 2, slices_per_subrange: 4, min_improvement: 0.01, "
            + "fluctuation_threshold: 0";
    private String execution = "dry_run: false, stream_throughput_mib_per_sec: 64, move_timeout_seconds: 300";
    private String advice;

    ItSidecarConfig(int nodes, String auth) {
        this.nodes = nodes;
        this.auth = auth;
    }

    /** The ITs' working directory (target/cassandra-it unless -Dcassandra.workdir). */
    static Path workdir() {
        return Path.of(System.getProperty("cassandra.workdir", "target/cassandra-it"));
    }

    /** The HTTP port (0, the default, picks a free one). */
    ItSidecarConfig port(int p) {
        this.port = p;
        return this;
    }

    /** Whether the sidecar may read each node's /proc (unset: the sidecar decides from the JMX host). */
    ItSidecarConfig colocated(boolean c) {
        this.colocated = c;
        return this;
    }

    /** The {@code collection:} fields, YAML flow style without braces. */
    ItSidecarConfig collection(String fields) {
        this.collection = fields;
        return this;
    }

    /** The {@code planner:} fields. */
    ItSidecarConfig planner(String fields) {
        this.planner = fields;
        return this;
    }

    /** The {@code execution:} fields but the journal, which {@link #write} names after the config. */
    ItSidecarConfig execution(String fields) {
        this.execution = fields;
        return this;
    }

    /** The {@code advice:} fields (none by default). */
    ItSidecarConfig advice(String fields) {
        this.advice = fields;
        return this;
    }

    /** Writes {@code <workdir>/<name>.yaml}, its journal {@code <workdir>/journal-<name>.json}. */
    Path write(String name) throws IOException {
        StringBuilder sb = new StringBuilder("cluster_name: libra-it\ninstances:\n");
        for (int i = 1; i <= nodes; i++) {
            sb.append("  - {id: n").append(i).append(", host: 127.0.0.").append(i)
                    .append(", jmx_host: 127.0.0.1, jmx_port: ").append(7000 + 100 * i)
                    .append(colocated == null ? "" : ", colocated: " + colocated).append("}\n");
        }
        sb.append("http: {host: 127.0.0.1, port: ").append(port).append(", auth_token: ").append(auth).append("}\n")
                .append("collection: {").append(collection).append("}\n")
                .append("planner: {").append(planner).append("}\n")
                .append("execution: {").append(execution).append(", journal: ")
                .append(workdir().resolve("journal-" + name + ".json")).append("}\n");
        if (advice != null) {
            sb.append("advice: {").append(advice).append("}\n");
        }
        Files.createDirectories(workdir());
        return Files.writeString(workdir().resolve(name + ".yaml"), sb.toString());
    }

    /** Writes the config and loads it as the daemon would (no environment overrides). */
    SidecarConfig load(String name) throws IOException {
        return ConfigLoader.load(write(name), Map.of());
    }
}
