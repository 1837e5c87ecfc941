package io.libra.hbase.reporter;

import java.io.PrintWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.util.JSONBean;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the master's pull costs a RegionServer: one {@code /jmx?qry=io.libra:type=RegionServerLoad,*}
 * pass, written by HBase's own {@code JSONBean} (the code behind the info server's {@code /jmx}
 * servlet) from the platform MBean server, with {@code regions} regions on the server. The
 * JSON goes to a writer that only counts characters, so the figure is the bean's and the
 * serialiser's cost, not the network's.
 *
 * <pre>./mvnw -B -pl libra-hbase test-compile exec:exec@jmh -Djmh.args="JmxPassBenchmark"</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class JmxPassBenchmark {
    @Param({"1000", "5000"})
    public int regions;

    private final MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
    private ObjectName name;
    private ObjectName query;

    @Setup(Level.Trial)
    public void register() throws Exception {
        ServerName sn = ServerName.valueOf("rs-bench.example.com", 16020, 1L);
        name = LibraRegionServerReporter.objectName(sn);
        query = new ObjectName(LibraRegionServerReporter.DOMAIN + ":type=RegionServerLoad,*");
        LoadReportMBean bean = new LoadReportMBean(sn.getServerName());
        Map<String, double[]> rates = new HashMap<>();
        for (int i = 0; i < regions; i++) {
            rates.put(String.format("%032x", i * 2654435761L), new double[] {i, i / 2.0, i * 100.0, i * 50.0});
        }
        bean.publish(new LoadReport(sn.getServerName(), System.currentTimeMillis(), 60, 16, 7.5, "process",
                1e8, 2e8, "proc-self-io", rates));
        mbs.registerMBean(bean, name);
    }

    @TearDown(Level.Trial)
    public void unregister() throws Exception {
        mbs.unregisterMBean(name);
    }

    /** One {@code /jmx?qry=…} answer; returns the characters written so nothing is optimised away. */
    @Benchmark
    public long jmxPass() throws Exception {
        CountingWriter out = new CountingWriter();
        try (PrintWriter pw = new PrintWriter(out); JSONBean.Writer w = new JSONBean().open(pw)) {
            w.write(mbs, query, null, false);
        }
        return out.chars;
    }

    private static final class CountingWriter extends Writer {
        long chars;

        @Override
        public void write(char[] buf, int off, int len) {
            chars += len;
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
