package io.libra.cassandra.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.FluctuationGuard;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The daemon's configuration file (YAML, snake_case keys), modelled on apache/cassandra-sidecar:
 * a list of instances, each with its own JMX host and port. Every field but {@code instances}
 * has a default; see docs/cassandra.md and sidecar.example.yaml.
 */
public final class SidecarConfig {
    /** Where the job journal lives unless execution.journal says otherwise; the directory must exist. */
    public static final String DEFAULT_JOURNAL = "/var/lib/libra/cassandra-journal.json";
    @JsonProperty("cluster_name")
    public String clusterName = "cassandra";
    @JsonProperty("instances")
    public List<Instance> instances = List.of();
    @JsonProperty("http")
    public Http http = new Http();
    @JsonProperty("collection")
    public Collection collection = new Collection();
    @JsonProperty("planner")
    public Planner planner = new Planner();
    @JsonProperty("execution")
    public Execution execution = new Execution();
    @JsonProperty("jmx")
    public Jmx jmx = new Jmx();

    public Lease lease = new Lease();
    @JsonProperty("advice")
    public Advice advice = new Advice();

    /** One Cassandra node. */
    public static final class Instance {
        @JsonProperty("id")
        public String id;
        @JsonProperty("host")
        public String host = "127.0.0.1";
        @JsonProperty("jmx_host")
        public String jmxHost;
        @JsonProperty("jmx_port")
        public int jmxPort = 7199;
        @JsonProperty("jmx_username")
        public String jmxUsername;
        @JsonProperty("jmx_password")
        public String jmxPassword;
        @JsonProperty("jmx_ssl")
        public boolean jmxSsl;
        /**
         * The node's disk bandwidth, bytes/s read plus written at saturation. Declared on every
         * instance, nodes of unequal size are balanced to their capacity: disk by this, CPU by the
         * cores JMX reports. Unset on every instance, the nodes count as equal.
         */
        @JsonProperty("disk_capacity_bytes_per_sec")
        public Double diskCapacityBytesPerSec;
        /** True when the daemon runs on this node's host, so /proc/&lt;pid&gt;/io can be read. */
        @JsonProperty("colocated")
        public Boolean colocated;

        public String jmxHostOrHost() {
            return jmxHost != null ? jmxHost : host;
        }
    }

    /** The HTTP API. */
    public static final class Http {
        @JsonProperty("host")
        public String host = "127.0.0.1";
        @JsonProperty("port")
        public int port = 9044;
        /**
         * Bearer token required on POST; null refuses every mutating call. Written here, or
         * read from {@code auth_token_file} or the environment variable {@code auth_token_env}.
         */
        @JsonProperty("auth_token")
        public String authToken;
        @JsonProperty("auth_token_file")
        public String authTokenFile;
        @JsonProperty("auth_token_env")
        public String authTokenEnv;
        /** Optional TLS: a PKCS12 (or JKS) keystore holding the API's key and certificate. */
        @JsonProperty("tls_keystore")
        public String tlsKeystore;
        /** The keystore's password, from this environment variable. */
        @JsonProperty("tls_keystore_password_env")
        public String tlsKeystorePasswordEnv;
        /** Resolved by the config loader from tls_keystore_password_env; never written in the file. */
        public transient char[] tlsKeystorePassword;
    }

    /** Limits on every JMX call, so a node that hangs cannot hang the daemon. */
    public static final class Jmx {
        @JsonProperty("connect_timeout_seconds")
        public int connectTimeoutSeconds = 5;
        /** How long one JMX call may take (a move is watched, not waited on, so it is not bound by this). */
        @JsonProperty("call_timeout_seconds")
        public int callTimeoutSeconds = 30;
    }

    /** The measurement window. */
    public static final class Collection {
        @JsonProperty("window_seconds")
        public int windowSeconds = 60;
        @JsonProperty("sampler_capacity")
        public int samplerCapacity = 256;
        /** How long the samplers run at the start of each window (a burst; at most the window). */
        @JsonProperty("sample_seconds")
        public int sampleSeconds = 10;
        /** Fewer sampled operations per window than this and the window is not planned on. */
        @JsonProperty("min_samples")
        public long minSamples = 200;
        @JsonProperty("subranges_per_arc")
        public int subrangesPerArc = 8;
        /**
         * The partition samplers: auto (on for single-token rings, off on vnode rings, which are
         * observed only), on, or off.
         */
        @JsonProperty("sampling")
        public String sampling = "auto";
        /** Keyspaces to watch; empty means every non-system keyspace. */
        @JsonProperty("keyspaces")
        public List<String> keyspaces = List.of();
    }

    /** The ring planner (core's io.libra.core.ring). */
    public static final class Planner {
        @JsonProperty("lambda")
        public double lambda = 0.1;
        @JsonProperty("max_moves")
        public int maxMoves = 2;
        @JsonProperty("max_move_bytes")
        public double maxMoveBytes = 0;
        @JsonProperty("slices_per_subrange")
        public int slicesPerSubrange = 4;
        @JsonProperty("min_improvement")
        public double minImprovement = 0.01;
        /** c of the paper's mapping (§IV-A): CPU weight of a write relative to a read. */
        @JsonProperty("correction_factor")
        public double correctionFactor = EstimationConfig.PAPER_CORRECTION_FACTOR;
        /**
         * Core's fluctuation guard: no plan while a node's load moved by more than this fraction
         * of the mean between consecutive windows (0 turns it off).
         */
        @JsonProperty("fluctuation_threshold")
        public double fluctuationThreshold = FluctuationGuard.DEFAULT.threshold();
        /**
         * Earlier windows the estimate learns from (kept in memory and beside the journal, also across a
         * change in ring membership while they share at least half its nodes; 0: this window only).
         */
        @JsonProperty("history_windows")
        public int historyWindows = 3;

        /** Core's metric mapping as configured (c = correction_factor), for every estimate the sidecar makes. */
        public EstimationConfig estimation() {
            return EstimationConfig.DEFAULT.withCorrectionFactor(correctionFactor);
        }
    }

    /** Each instance's declared disk capacity by node id; empty when none is declared. */
    public Map<String, Double> diskCapacities() {
        Map<String, Double> out = new TreeMap<>();
        instances.stream().filter(i -> i.diskCapacityBytesPerSec != null).forEach(i -> out.put(i.id, i.diskCapacityBytesPerSec));
        return out;
    }

    /** Running plans. */
    public static final class Execution {
        /** Dry run by default: a rebalance job records what it would do and moves nothing. */
        @JsonProperty("dry_run")
        public boolean dryRun = true;
        @JsonProperty("stream_throughput_mib_per_sec")
        public int streamThroughputMibPerSec = 24;
        @JsonProperty("entire_sstable_stream_throughput_mib_per_sec")
        public int entireSstableStreamThroughputMibPerSec = 24;
        /** Refuse a move when a receiving node's free disk cannot be seen (the sidecar not on its host). */
        @JsonProperty("check_free_disk")
        public boolean checkFreeDisk = true;
        /** Finished jobs kept in the history file beside the journal. */
        @JsonProperty("history")
        public int history = 20;
        @JsonProperty("journal")
        public String journal = DEFAULT_JOURNAL;
        /** What a restarted daemon does with an unfinished job: resume or abandon. */
        @JsonProperty("on_restart")
        public String onRestart = "resume";
        @JsonProperty("move_timeout_seconds")
        public int moveTimeoutSeconds = 1800;
        @JsonProperty("cleanup")
        public boolean cleanup = true;
    }

    /**
     * The execution lease: a row in a keyspace of the sidecar's own, taken and renewed with a
     * lightweight transaction (LWT), so that two sidecars on one ring never both move tokens.
     */
    public static final class Lease {
        /** Off only where one sidecar is certain (a dry-run job never needs the lease). */
        @JsonProperty("enabled")
        public boolean enabled = true;
        @JsonProperty("cql_port")
        public int cqlPort = 9042;
        @JsonProperty("keyspace")
        public String keyspace = "libra_sidecar";
        /** The lease lapses this long after its holder stops renewing it (renewed every third of it). */
        @JsonProperty("ttl_seconds")
        public int ttlSeconds = 60;
        /** Who holds it, as other sidecars see it; null: host name and HTTP port. */
        @JsonProperty("owner")
        public String owner;
        /** The driver's local data centre; null: the first instance's, as its snitch reports it over JMX. */
        @JsonProperty("local_datacenter")
        public String localDatacenter;
        @JsonProperty("username")
        public String username;
        /** The environment variable holding the CQL password (with username). */
        @JsonProperty("password_env")
        public String passwordEnv;
        public transient String password;
        /** TLS to the native port, trusting the JVM's default trust store. */
        @JsonProperty("ssl")
        public boolean ssl;
    }

    /** The add-node advice's comparison with Cassandra's own token allocator. */
    public static final class Advice {
        /**
         * A Cassandra installation (the directory holding its jar, or its lib/): the advice then
         * also gives the tokens Cassandra's allocator would take and their predicted balance.
         * Null: no comparison.
         */
        @JsonProperty("cassandra_home")
        public String cassandraHome;
        /** What the joining nodes' allocate_tokens_for_local_replication_factor would be (cassandra.yaml's default 3). */
        @JsonProperty("allocator_replication_factor")
        public int allocatorReplicationFactor = 3;
        /** The JVM to run the allocator in; null: the sidecar's own. */
        @JsonProperty("java")
        public String java;
        @JsonProperty("allocator_timeout_seconds")
        public int allocatorTimeoutSeconds = 120;
    }
}
