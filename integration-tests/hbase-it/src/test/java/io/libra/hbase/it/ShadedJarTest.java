package io.libra.hbase.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The jar an operator copies into {@code $HBASE_HOME/lib}: it must replace or shadow nothing on
 * HBase's classpath, so every class in it lives under {@code io.libra} (its own code, and
 * Jackson, Micrometer, Dropwizard metrics, HdrHistogram and LatencyUtils relocated under
 * {@code io.libra.shaded}).
 */
class ShadedJarTest {
    private static Path jar() {
        return Path.of(System.getProperty("libra.shaded.jar", "target/deployed/libra-hbase-shaded.jar"));
    }

    @Test
    void everyClassIsLibrasOwnOrRelocated() throws Exception {
        List<String> foreign = new ArrayList<>();
        int classes = 0;
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                if (e.getName().endsWith(".class")) {
                    classes++;
                    if (!e.getName().startsWith("io/libra/")) {
                        foreign.add(e.getName());
                    }
                }
            }
            assertThat(jar.getEntry("io/libra/hbase/balancer/LibraLoadBalancer.class")).isNotNull();
            assertThat(jar.getEntry("io/libra/shaded/jackson/databind/ObjectMapper.class")).isNotNull();
            assertThat(jar.getEntry("io/libra/shaded/micrometer/jmx/JmxMeterRegistry.class")).isNotNull();
            assertThat(jar.getEntry("io/libra/shaded/codahale/metrics/jmx/JmxReporter.class")).isNotNull();
        }
        assertThat(classes).isGreaterThan(1000);
        assertThat(foreign).isEmpty();
    }
}
