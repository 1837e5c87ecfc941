package io.libra.cassandra.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path yaml(String text) throws IOException {
        return Files.writeString(dir.resolve("sidecar.yaml"), text);
    }

    @Test
    void readsTheExampleConfig() {
        SidecarConfig c = ConfigLoader.load(Path.of("sidecar.example.yaml"), Map.of("LIBRA_SIDECAR_TOKEN", "s3cret"));
        assertThat(c.http.authToken).isEqualTo("s3cret");
        assertThat(c.instances).hasSize(3);
        assertThat(c.instances.get(1).jmxPort).isEqualTo(7200);
        assertThat(c.execution.dryRun).isTrue();
        assertThat(c.http.host).isEqualTo("127.0.0.1");
    }

    @Test
    void defaultsAreSafe() throws IOException {
        SidecarConfig c = ConfigLoader.load(yaml("instances:\n  - {host: 10.0.0.1, jmx_port: 7199}\n"));
        assertThat(c.execution.dryRun).isTrue();
        assertThat(c.http.host).isEqualTo("127.0.0.1");
        assertThat(c.instances.get(0).id).isEqualTo("10.0.0.1:7199");
        assertThat(c.collection.sampleSeconds).as("samplers run in bursts").isLessThan(c.collection.windowSeconds);
        assertThat(c.collection.sampling).isEqualTo("auto");
    }

    @Test
    void theLeaseIsOnByDefaultAndItsFieldsAreChecked() throws IOException {
        SidecarConfig c = ConfigLoader.load(yaml("instances:\n  - {host: 10.0.0.1, jmx_port: 7199}\nhttp: {port: 9050}\n"));
        assertThat(c.lease.enabled).isTrue();
        assertThat(c.lease.keyspace).isEqualTo("libra_sidecar");
        assertThat(c.lease.owner).as("host name and HTTP port").endsWith(":9050");
        String node = "instances:\n  - {host: a}\n";
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "lease: {ttl_seconds: 5}\n")))
                .hasMessageEndingWith("sidecar.yaml: lease.ttl_seconds: must be from 10 to 3600, got 5");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "lease: {keyspace: \"Libra-ks\"}\n")))
                .hasMessageContaining("lease.keyspace: must be a lower-case CQL name");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "lease: {username: libra}\n")))
                .hasMessageContaining("lease: username and password_env go together");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "lease: {username: libra, password_env: NO_SUCH_VAR_X}\n")))
                .hasMessageContaining("lease.password_env: the environment variable NO_SUCH_VAR_X is not set");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "lease: {cql_port: 0}\n")))
                .hasMessageContaining("lease.cql_port: must be 1..65535, got 0");
    }

    @Test
    void theAllocatorsCassandraHomeMustHoldCassandra() throws IOException {
        String node = "instances:\n  - {host: 10.0.0.1, jmx_port: 7199}\n";
        assertThat(ConfigLoader.load(yaml(node)).advice.cassandraHome).as("no comparison by default").isNull();
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "advice: {cassandra_home: " + dir + "}\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("sidecar.yaml: advice.cassandra_home: no Cassandra jar (apache-cassandra-*.jar or "
                        + "cassandra-all-*.jar) in " + dir + " or " + dir.resolve("lib"));
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "advice: {allocator_replication_factor: 0}\n")))
                .hasMessageEndingWith("sidecar.yaml: advice.allocator_replication_factor: must be > 0, got 0");
        Files.createFile(dir.resolve("cassandra-all-5.0.6.jar"));
        assertThatThrownBy(() -> ConfigLoader.load(yaml(node + "advice: {cassandra_home: " + dir + ", java: "
                + dir.resolve("no-java") + "}\n"))).hasMessageEndingWith("sidecar.yaml: advice.java: not an executable file: "
                + dir.resolve("no-java"));
        assertThat(ConfigLoader.load(yaml(node + "advice: {cassandra_home: " + dir + "}\n")).advice.cassandraHome)
                .isEqualTo(dir.toString());
    }

    @Test
    void unknownFieldIsNamed() throws IOException {
        Path p = yaml("instances:\n  - {host: a, jmx_prot: 1}\n");
        assertThatThrownBy(() -> ConfigLoader.load(p)).isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("sidecar.yaml: instances[0].jmx_prot: unknown field");
    }

    @Test
    void wrongTypeIsNamed() throws IOException {
        Path p = yaml("instances:\n  - {host: a, jmx_port: seven}\n");
        assertThatThrownBy(() -> ConfigLoader.load(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("instances[0].jmx_port: ");
    }

    @Test
    void badValuesAreOneLineNamingTheField() throws IOException {
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances: []\n"))).hasMessageContaining("instances: must list");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {host: a, jmx_port: 70000}\n")))
                .hasMessageContaining("instances[0].jmx_port: must be 1..65535, got 70000");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\n  - {id: a}\n")))
                .hasMessageContaining("instances[1].id: duplicate id a");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nexecution: {on_restart: maybe}\n")))
                .hasMessageContaining("execution.on_restart: must be resume or abandon");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a, jmx_username: u}\n")))
                .hasMessageContaining("jmx_username and jmx_password go together");
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("missing.yaml"))).hasMessageContaining("cannot read");
    }

    @Test
    void diskCapacitiesAreDeclaredOnEveryInstanceOrOnNone() throws IOException {
        SidecarConfig sized = ConfigLoader.load(yaml("instances:\n  - {id: a, disk_capacity_bytes_per_sec: 6.0e8}\n"
                + "  - {id: b, disk_capacity_bytes_per_sec: 3.0e8}\n"));
        assertThat(sized.diskCapacities()).isEqualTo(Map.of("a", 6.0e8, "b", 3.0e8));
        assertThat(ConfigLoader.load(yaml("instances:\n  - {id: a}\n")).diskCapacities()).isEmpty();
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a, disk_capacity_bytes_per_sec: 6.0e8}\n"
                + "  - {id: b}\n"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("instances[1].disk_capacity_bytes_per_sec: declared on other instances");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a, disk_capacity_bytes_per_sec: 0}\n")))
                .hasMessageContaining("instances[0].disk_capacity_bytes_per_sec: must be a number > 0, got 0.0");
    }

    @Test
    void jacksonsWordingNeverReachesTheOperator() throws IOException {
        assertThatThrownBy(() -> ConfigLoader.load(yaml("cluster_name: [a, b]\ninstances:\n  - {id: a}\n")))
                .hasMessageEndingWith("sidecar.yaml: cluster_name: must be a single value (text), got a list")
                .hasMessageNotContaining("deserialize").hasMessageNotContaining("JsonToken");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("")))
                .hasMessageEndingWith("sidecar.yaml: the file is empty (at least `instances:` is needed)");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {host: a, jmx_port: seven}\n")))
                .hasMessageEndingWith("instances[0].jmx_port: must be a whole number, got \"seven\"");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("http: {port: 1.5}\ninstances:\n  - {id: a}\n")))
                .hasMessageContaining("http.port: must be a whole number");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("execution:\n  dry_run: maybe\ninstances:\n  - {id: a}\n")))
                .hasMessageContaining("execution.dry_run: must be true or false, got \"maybe\"");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances: {id: a}\n")))
                .hasMessageContaining("instances: must be a list, got a mapping");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - id: a\n  jmx_port: 1\n    x: y\n")))
                .hasMessageContaining("sidecar.yaml: line ").hasMessageContaining("invalid YAML: ");
    }

    @Test
    void plannerLimitsNameTheirField() throws IOException {
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {max_moves: -1}\n")))
                .hasMessageEndingWith("sidecar.yaml: planner.max_moves: must be a number >= 0, got -1");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {lambda: -0.5}\n")))
                .hasMessageEndingWith("planner.lambda: must be a number > 0 and < 10, got -0.5");
        // λ and min_improvement are core's λ and benefit threshold: 0 < λ < 10, 0 <= threshold < 1
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {lambda: 0}\n")))
                .hasMessageEndingWith("planner.lambda: must be a number > 0 and < 10, got 0");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {min_improvement: 1}\n")))
                .hasMessageEndingWith("planner.min_improvement: must be a number >= 0 and < 1, got 1");
        assertThat(ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {min_improvement: 0}\n")).planner.minImprovement)
                .isZero();
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\nplanner: {history_windows: 11}\n")))
                .hasMessageEndingWith("planner.history_windows: must be from 0 to 10, got 11");
        assertThat(ConfigLoader.load(yaml("instances:\n  - {id: a}\n")).planner.historyWindows).isEqualTo(3);
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\ncollection: {sample_seconds: 0}\n")))
                .hasMessageEndingWith("collection.sample_seconds: must be > 0, got 0");
        assertThatThrownBy(() -> ConfigLoader.load(yaml("instances:\n  - {id: a}\ncollection: {sampling: maybe}\n")))
                .hasMessageEndingWith("collection.sampling: must be auto, on or off, got maybe");
    }

    @Test
    void theTokenComesFromTheEnvironmentOrAFileAndTheExampleIsRefused() throws IOException {
        String ins = "instances:\n  - {id: a}\n";
        assertThat(ConfigLoader.load(yaml(ins + "http: {auth_token_env: TOK}\n"), Map.of("TOK", " abc\n")).http.authToken)
                .isEqualTo("abc");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(ins + "http: {auth_token_env: TOK}\n"), Map.of()))
                .hasMessageEndingWith("http.auth_token_env: the environment variable TOK is not set");
        Path file = Files.writeString(dir.resolve("token"), "from-file\n");
        assertThat(ConfigLoader.load(yaml(ins + "http: {auth_token_file: " + file + "}\n"), Map.of()).http.authToken)
                .isEqualTo("from-file");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(ins + "http: {auth_token_file: " + dir.resolve("nope") + "}\n"),
                Map.of())).hasMessageContaining("http.auth_token_file: cannot read ").hasMessageEndingWith("no such file");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(ins + "http: {auth_token: change-me}\n"), Map.of()))
                .hasMessageContaining("http.auth_token: \"change-me\" is the example token from the docs");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(ins + "http: {auth_token_env: TOK}\n"),
                Map.of("TOK", "change-me"))).hasMessageContaining("http.auth_token_env: \"change-me\" is the example token");
        assertThatThrownBy(() -> ConfigLoader.load(yaml(ins + "http: {auth_token: a, auth_token_env: TOK}\n"), Map.of()))
                .hasMessageEndingWith("http: give only one of auth_token, auth_token_file and auth_token_env");
        assertThat(ConfigLoader.load(yaml(ins), Map.of()).execution.journal).isEqualTo("/var/lib/libra/cassandra-journal.json");
    }
}
