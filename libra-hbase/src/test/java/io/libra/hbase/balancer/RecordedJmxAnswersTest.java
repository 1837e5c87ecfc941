package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.util.JSONBean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * libra-cli's capture tests replay what a master's {@code /jmx?qry=io.libra:type=BalancerSnapshot}
 * answers ({@code libra-cli/src/test/resources/hbase-jmx/}). This answers the same queries with
 * HBase's own servlet writer ({@link JSONBean}) over the real {@link SnapshotExport} bean and
 * compares, so a change of the bean shows here. {@code -Dlibra.jmx.record=true} writes the
 * files anew instead.
 */
class RecordedJmxAnswersTest {
    private static final Path RECORDED = Path.of("..", "libra-cli", "src", "test", "resources", "hbase-jmx");
    private static final Path EXAMPLE = Path.of("..", "examples", "ycsb-a-4nodes.snapshot.json");

    @AfterEach
    void unregister() {
        SnapshotExport.unregister();
    }

    @Test
    void noBean() throws Exception {
        SnapshotExport.unregister();
        check("no-bean.json");
    }

    @Test
    void beanBeforeTheFirstWindow() throws Exception {
        register(() -> null);
        check("no-window-yet.json");
    }

    @Test
    void beanWithAWindow() throws Exception {
        ClusterSnapshot example = SnapshotCodec.read(EXAMPLE.toString(), Files.readAllBytes(EXAMPLE));
        register(() -> example);
        check("snapshot.json");
    }

    private static void register(Supplier<ClusterSnapshot> last) {
        SnapshotExport.unregister();
        new SnapshotExport(last).register();
    }

    private static void check(String file) throws Exception {
        String answer = answer();
        Path recorded = RECORDED.resolve(file);
        if (Boolean.getBoolean("libra.jmx.record")) {
            Files.writeString(recorded, answer, StandardCharsets.UTF_8);
        }
        assertThat(answer).as("HBase's JSONBean over the bean; recorded in %s (-Dlibra.jmx.record=true rewrites it)",
                recorded).isEqualTo(Files.readString(recorded, StandardCharsets.UTF_8));
    }

    /** What the master's /jmx servlet writes for the query (HBase 2.6.4's JSONBean, as JMXJsonServlet calls it). */
    private static String answer() throws Exception {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        try (JSONBean.Writer w = new JSONBean().open(out)) {
            w.write(ManagementFactory.getPlatformMBeanServer(), new ObjectName(SnapshotExport.NAME), null, false, null);
        }
        out.flush();
        return text.toString();
    }
}
