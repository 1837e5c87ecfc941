package io.libra.cassandra.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        SidecarConfig c = ConfigLoader.load(Path.of("sidecar.example.yaml"));
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
}
