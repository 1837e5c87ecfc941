package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The balancer on the deployed layout ({@link DeployedJvm}), beside stand-ins for the master and two RegionServers. */
class DeployedLayoutTest {
    @Test
    void theShadedJarAloneRunsTheBalancerBesideHbasesJars() throws Exception {
        Path log = Files.createTempFile("deployed-layout", ".log");
        Process p = DeployedJvm.start(DeployedLayoutMain.class, "512m", log);
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        assertThat(ended).as("the child JVM ends within 120 s; its output: %s", out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("DEPLOYED-LAYOUT reported=2").contains("meters=true").doesNotContain("moves=0 ");
    }
}
