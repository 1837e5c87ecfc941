package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The balancer on the deployed layout: a separate JVM whose classpath is HBase's jars (this
 * module's test classpath without any Libra, Micrometer, Dropwizard-4, HdrHistogram or
 * LatencyUtils jar) plus only the shaded jar.
 */
class DeployedLayoutTest {
    private static boolean libraOrRelocated(String entry) {
        String e = entry.replace('\\', '/');
        return e.contains("/io/libra/") || e.contains("/libra-core/") || e.contains("/libra-hbase/")
                || e.contains("/io/micrometer/") || e.contains("/metrics-jmx/") || e.contains("/HdrHistogram/")
                || e.contains("/LatencyUtils/") || e.contains("/metrics-core/4.");
    }

    @Test
    void theShadedJarAloneRunsTheBalancerBesideHbasesJars() throws Exception {
        List<String> cp = new ArrayList<>();
        cp.add(System.getProperty("libra.shaded.jar", "target/deployed/libra-hbase-shaded.jar"));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!libraOrRelocated(entry)) {
                cp.add(entry);
            }
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", String.join(File.pathSeparator, cp),
                DeployedLayoutMain.class.getName()));
        // output to a file, so the timeout below can fire: reading a pipe to its end would wait for the child
        Path log = Files.createTempFile("deployed-layout", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
