package io.libra.cassandra.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.libra.cassandra.allocator.CassandraAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Reads and checks the YAML config; every problem is one line naming the field, in our words, not Jackson's. */
public final class ConfigLoader {
    /** Windows are whole snapshots kept in memory and on disk: a bound keeps a large ring's history small. */
    static final int MAX_HISTORY_WINDOWS = 10;
    /** The token the docs and the example config show; a daemon started with it would accept anyone who read them. */
    public static final String EXAMPLE_TOKEN = "change-me";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private ConfigLoader() {
    }

    public static SidecarConfig load(Path file) {
        return load(file, System.getenv());
    }

    /** As {@link #load(Path)}, with the environment the token may come from. */
    public static SidecarConfig load(Path file, Map<String, String> env) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file + ": cannot read: no such file");
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            throw new ConfigException(file + ": the file is empty (at least `instances:` is needed)");
        }
        SidecarConfig c;
        try {
            c = YAML.readValue(bytes, SidecarConfig.class);
        } catch (JsonProcessingException e) {
            throw new ConfigException(file + ": " + describe(e));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (c == null) {
            throw new ConfigException(file + ": the file is empty (at least `instances:` is needed)");
        }
        return check(c, file.toString(), env);
    }

    private static String describe(JsonProcessingException e) {
        org.yaml.snakeyaml.error.MarkedYAMLException yaml = ConfigWording.yamlError(e);
        if (yaml != null) {
            return ConfigWording.syntax(yaml);
        }
        if (e instanceof UnrecognizedPropertyException x) {
            return path(x) + ": unknown field";
        }
        if (e instanceof MismatchedInputException x) {
            return path(x) + ": " + ConfigWording.mismatch(x);
        }
        if (e instanceof JsonParseException x) {
            return ConfigWording.syntax(x);
        }
        if (e instanceof JsonMappingException x) {
            return path(x) + ": " + ConfigWording.firstLine(x.getOriginalMessage());
        }
        return ConfigWording.firstLine(e.getOriginalMessage());
    }

    /** "instances[0].jmx_port" from Jackson's reference chain. */
    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.length() > 0 ? "." : "").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.length() == 0 ? "(top level)" : sb.toString();
    }

    public static SidecarConfig check(SidecarConfig c, String source) {
        return check(c, source, System.getenv());
    }

    /** A disk capacity is a number > 0, declared on every instance or on none (the nodes' targets need all of them). */
    private static void diskCapacity(SidecarConfig c, SidecarConfig.Instance in, String at) {
        Double d = in.diskCapacityBytesPerSec;
        if (d != null && !(d > 0 && Double.isFinite(d))) {
            throw new ConfigException(at + ".disk_capacity_bytes_per_sec: must be a number > 0, got " + d);
        }
        boolean any = c.instances.stream().anyMatch(i -> i != null && i.diskCapacityBytesPerSec != null);
        if (any && d == null) {
            throw new ConfigException(at + ".disk_capacity_bytes_per_sec: declared on other instances, so needed on"
                    + " every one (the nodes are balanced to their share of the ring's capacity)");
        }
    }

    public static SidecarConfig check(SidecarConfig c, String source, Map<String, String> env) {
        if (c.instances == null || c.instances.isEmpty()) {
            throw new ConfigException(source + ": instances: must list at least one node");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < c.instances.size(); i++) {
            SidecarConfig.Instance in = c.instances.get(i);
            String at = source + ": instances[" + i + "]";
            if (in == null) {
                throw new ConfigException(at + ": must be a mapping with host and jmx_port");
            }
            if (in.id == null || in.id.isBlank()) {
                in.id = in.host + ":" + in.jmxPort;
            }
            if (!ids.add(in.id)) {
                throw new ConfigException(at + ".id: duplicate id " + in.id);
            }
            if (in.jmxPort < 1 || in.jmxPort > 65535) {
                throw new ConfigException(at + ".jmx_port: must be 1..65535, got " + in.jmxPort);
            }
            if ((in.jmxUsername == null) != (in.jmxPassword == null)) {
                throw new ConfigException(at + ": jmx_username and jmx_password go together");
            }
            diskCapacity(c, in, at);
        }
        positive(source + ": collection.window_seconds", c.collection.windowSeconds);
        positive(source + ": collection.sampler_capacity", c.collection.samplerCapacity);
        positive(source + ": collection.sample_seconds", c.collection.sampleSeconds);
        positive(source + ": collection.subranges_per_arc", c.collection.subrangesPerArc);
        positive(source + ": planner.slices_per_subrange", c.planner.slicesPerSubrange);
        // λ and min_improvement are the core planner's λ and benefit threshold, within its bounds
        below(source + ": planner.lambda", c.planner.lambda, false, 10);
        notNegative(source + ": planner.max_moves", c.planner.maxMoves);
        notNegative(source + ": planner.max_move_bytes", c.planner.maxMoveBytes);
        below(source + ": planner.min_improvement", c.planner.minImprovement, true, 1);
        notNegative(source + ": planner.fluctuation_threshold", c.planner.fluctuationThreshold);
        if (c.planner.historyWindows < 0 || c.planner.historyWindows > MAX_HISTORY_WINDOWS) {
            throw new ConfigException(source + ": planner.history_windows: must be from 0 to " + MAX_HISTORY_WINDOWS
                    + ", got " + c.planner.historyWindows);
        }
        if (!(c.planner.correctionFactor > 0) || Double.isInfinite(c.planner.correctionFactor)) {
            throw new ConfigException(source + ": planner.correction_factor: must be a number > 0, got "
                    + c.planner.correctionFactor);
        }
        if (!"resume".equals(c.execution.onRestart) && !"abandon".equals(c.execution.onRestart)) {
            throw new ConfigException(source + ": execution.on_restart: must be resume or abandon, got " + c.execution.onRestart);
        }
        if (!java.util.Set.of("auto", "on", "off").contains(String.valueOf(c.collection.sampling))) {
            throw new ConfigException(source + ": collection.sampling: must be auto, on or off, got " + c.collection.sampling);
        }
        if (c.execution.journal == null || c.execution.journal.isBlank()) {
            throw new ConfigException(source + ": execution.journal: must name a file");
        }
        positive(source + ": execution.stream_throughput_mib_per_sec", c.execution.streamThroughputMibPerSec);
        positive(source + ": execution.move_timeout_seconds", c.execution.moveTimeoutSeconds);
        positive(source + ": execution.entire_sstable_stream_throughput_mib_per_sec",
                c.execution.entireSstableStreamThroughputMibPerSec);
        notNegative(source + ": execution.history", c.execution.history);
        positive(source + ": jmx.connect_timeout_seconds", c.jmx.connectTimeoutSeconds);
        positive(source + ": jmx.call_timeout_seconds", c.jmx.callTimeoutSeconds);
        if (c.http.port < 0 || c.http.port > 65535) {
            throw new ConfigException(source + ": http.port: must be 0..65535, got " + c.http.port);
        }
        c.http.authToken = token(c.http, source, env);
        tls(c.http, source, env);
        lease(c, source, env);
        advice(c.advice, source);
        return c;
    }

    private static void advice(SidecarConfig.Advice a, String source) {
        positive(source + ": advice.allocator_replication_factor", a.allocatorReplicationFactor);
        positive(source + ": advice.allocator_timeout_seconds", a.allocatorTimeoutSeconds);
        if (a.cassandraHome != null) {
            CassandraAllocator.problem(Path.of(a.cassandraHome)).ifPresent(why -> {
                throw new ConfigException(source + ": advice.cassandra_home: " + why);
            });
        }
        if (a.java != null && !Files.isExecutable(Path.of(a.java))) {
            throw new ConfigException(source + ": advice.java: not an executable file: " + a.java);
        }
    }

    private static void lease(SidecarConfig c, String source, Map<String, String> env) {
        SidecarConfig.Lease l = c.lease;
        if (l.cqlPort < 1 || l.cqlPort > 65535) {
            throw new ConfigException(source + ": lease.cql_port: must be 1..65535, got " + l.cqlPort);
        }
        if (l.keyspace == null || !l.keyspace.matches("[a-z][a-z0-9_]{0,47}")) {
            throw new ConfigException(source + ": lease.keyspace: must be a lower-case CQL name (letters, digits, _), got "
                    + l.keyspace);
        }
        if (l.ttlSeconds < 10 || l.ttlSeconds > 3600) {
            throw new ConfigException(source + ": lease.ttl_seconds: must be from 10 to 3600, got " + l.ttlSeconds);
        }
        if ((l.username == null) != (l.passwordEnv == null)) {
            throw new ConfigException(source + ": lease: username and password_env go together");
        }
        if (l.passwordEnv != null) {
            l.password = env.get(l.passwordEnv);
            if (l.password == null) {
                throw new ConfigException(source + ": lease.password_env: the environment variable " + l.passwordEnv
                        + " is not set");
            }
        }
        if (l.owner == null || l.owner.isBlank()) {
            l.owner = hostName() + ":" + c.http.port;
        }
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "sidecar-" + ProcessHandle.current().pid();
        }
    }

    private static void tls(SidecarConfig.Http h, String source, Map<String, String> env) {
        if (h.tlsKeystore == null) {
            if (h.tlsKeystorePasswordEnv != null) {
                throw new ConfigException(source + ": http.tls_keystore_password_env: set without http.tls_keystore");
            }
            return;
        }
        if (!Files.isReadable(Path.of(h.tlsKeystore))) {
            throw new ConfigException(source + ": http.tls_keystore: cannot read " + h.tlsKeystore);
        }
        if (h.tlsKeystorePasswordEnv == null) {
            throw new ConfigException(source + ": http.tls_keystore_password_env: required with http.tls_keystore "
                    + "(the environment variable holding the keystore's password)");
        }
        String password = env.get(h.tlsKeystorePasswordEnv);
        if (password == null) {
            throw new ConfigException(source + ": http.tls_keystore_password_env: the environment variable "
                    + h.tlsKeystorePasswordEnv + " is not set");
        }
        h.tlsKeystorePassword = password.toCharArray();
    }

    /** The bearer token from exactly one of auth_token, auth_token_file and auth_token_env (or none). */
    private static String token(SidecarConfig.Http h, String source, Map<String, String> env) {
        int given = (h.authToken != null ? 1 : 0) + (h.authTokenFile != null ? 1 : 0) + (h.authTokenEnv != null ? 1 : 0);
        if (given > 1) {
            throw new ConfigException(source + ": http: give only one of auth_token, auth_token_file and auth_token_env");
        }
        String field = "http.auth_token";
        String token = h.authToken;
        if (h.authTokenFile != null) {
            field = "http.auth_token_file";
            try {
                token = Files.readString(Path.of(h.authTokenFile)).strip();
            } catch (IOException | RuntimeException e) {
                throw new ConfigException(source + ": " + field + ": cannot read " + h.authTokenFile + ": "
                        + (e instanceof NoSuchFileException ? "no such file" : ConfigWording.firstLine(e.getMessage())));
            }
        } else if (h.authTokenEnv != null) {
            field = "http.auth_token_env";
            token = env.get(h.authTokenEnv);
            if (token == null) {
                throw new ConfigException(source + ": " + field + ": the environment variable " + h.authTokenEnv
                        + " is not set");
            }
            token = token.strip();
        }
        if (token == null) {
            return null;
        }
        if (token.isEmpty()) {
            throw new ConfigException(source + ": " + field + ": the token is empty");
        }
        if (token.equals(EXAMPLE_TOKEN)) {
            throw new ConfigException(source + ": " + field + ": \"" + EXAMPLE_TOKEN
                    + "\" is the example token from the docs; choose a secret of your own (e.g. openssl rand -hex 32)");
        }
        return token;
    }

    private static void positive(String field, long v) {
        if (v <= 0) {
            throw new ConfigException(field + ": must be > 0, got " + v);
        }
    }

    private static void notNegative(String field, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new ConfigException(field + ": must be a number >= 0, got " + number(v));
        }
    }

    /** {@code v} from 0 ({@code zero} whether 0 itself is allowed) up to, not including, {@code max}. */
    private static void below(String field, double v, boolean zero, double max) {
        if (!(zero ? v >= 0 : v > 0) || !(v < max)) {
            throw new ConfigException(field + ": must be a number " + (zero ? ">= 0" : "> 0") + " and < " + number(max)
                    + ", got " + number(v));
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
