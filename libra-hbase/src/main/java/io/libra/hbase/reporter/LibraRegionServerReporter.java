package io.libra.hbase.reporter;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.coprocessor.RegionServerCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionServerCoprocessorEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RegionServer side of Libra: every window it samples the process CPU, the disk bytes and the
 * traffic counted by {@link LibraRegionObserver}, and publishes them on JMX as
 * {@code io.libra:type=RegionServerLoad,server=<host_port_startcode>}. Load it with
 * {@code hbase.coprocessor.regionserver.classes}.
 *
 * <p>When several RegionServers share one JVM (a mini cluster), the process CPU and
 * {@code /proc/self/io} cannot be split between them: the reporter then uses the CPU time of
 * the server's own threads and the user bytes its regions served.
 */
public final class LibraRegionServerReporter implements RegionServerCoprocessor {
    public static final String WINDOW_MS = "hbase.libra.reporter.window.ms";
    public static final long DEFAULT_WINDOW_MS = 10_000;
    /** {@code auto} (process, or threads when the JVM is shared), {@code process}, {@code threads}. */
    public static final String CPU_SOURCE = "hbase.libra.reporter.cpu.source";
    public static final String DOMAIN = "io.libra";
    /** CPU this server may use, in cores (default: the JVM's available processors). */
    public static final String CPU_CAPACITY = "hbase.libra.reporter.cpu.capacity";
    /** What this server's disk can do, bytes/s read plus written; 0 (default) = not declared. */
    public static final String DISK_CAPACITY = "hbase.libra.reporter.disk.capacity.bytes.per.sec";

    private static final Logger LOG = LoggerFactory.getLogger(LibraRegionServerReporter.class);
    private static final Set<String> RUNNING = ConcurrentHashMap.newKeySet();

    private ScheduledExecutorService timer;
    private ObjectName objectName;
    private String serverName;

    /** The JMX name a RegionServer's report is published under. */
    public static ObjectName objectName(ServerName server) {
        try {
            String key = server.getHostname() + "_" + server.getPort() + "_" + server.getStartcode();
            return new ObjectName(DOMAIN + ":type=RegionServerLoad,server=" + key);
        } catch (JMException e) {
            throw new IllegalArgumentException("server name " + server + " does not fit a JMX name", e);
        }
    }

    @Override
    public void start(CoprocessorEnvironment env) {
        if (!(env instanceof RegionServerCoprocessorEnvironment)) {
            LOG.warn("Libra reporter loaded outside a RegionServer ({}); not reporting", env.getClass().getName());
            return;
        }
        ServerName server = ((RegionServerCoprocessorEnvironment) env).getServerName();
        serverName = server.getServerName();
        Configuration conf = env.getConfiguration();
        long windowMs = Math.max(100, conf.getLong(WINDOW_MS, DEFAULT_WINDOW_MS));
        RUNNING.add(serverName);
        String cpuSource = conf.get(CPU_SOURCE, "auto").trim().toLowerCase(Locale.ROOT);
        double cores = conf.getDouble(CPU_CAPACITY, Runtime.getRuntime().availableProcessors());
        double diskCapacity = Math.max(0, conf.getDouble(DISK_CAPACITY, 0));
        LoadSampler sampler = new LoadSampler(serverName, cores > 0 ? cores : Runtime.getRuntime().availableProcessors(),
                diskCapacity, cpuClock(cpuSource, server.getPort()), diskCounter(cpuSource, conf), System::nanoTime,
                System::currentTimeMillis);
        LoadReportMBean bean = new LoadReportMBean(serverName);
        objectName = objectName(server);
        register(bean);
        ServerTraffic traffic = ServerTraffic.of(serverName);
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "libra-reporter-" + server.getPort());
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> sampleQuietly(sampler, traffic, bean), 0, windowMs, TimeUnit.MILLISECONDS);
        LOG.info("Libra reporter for {} publishing {} every {} ms (cpu source {})", serverName, objectName,
                windowMs, cpuSource);
    }

    /** In {@code auto}, a JVM shared by several RegionServers is detected at each sample. */
    private static CpuClock cpuClock(String source, int rpcPort) {
        CpuClock process = CpuClock.process();
        CpuClock threads = CpuClock.threads(name -> ownThread(name, rpcPort));
        if (source.equals("process")) {
            return process;
        }
        if (source.equals("threads")) {
            return threads;
        }
        return new CpuClock() {
            private CpuClock chosen;

            @Override
            public long cpuNanos() {
                CpuClock now = RUNNING.size() > 1 ? threads : process;
                if (chosen != null && chosen != now) {
                    chosen = now;
                    return -1; // the two clocks do not compare: restart the window
                }
                chosen = now;
                return now.cpuNanos();
            }

            @Override
            public String name() {
                return chosen == null ? "process" : chosen.name();
            }
        };
    }

    /**
     * The node's disk figure ({@link DiskSources}). The process's own /proc/self/io describes the
     * whole JVM: when several RegionServers share it (a mini cluster) no process or host figure
     * can be split between them, and the user bytes are used instead.
     */
    private DiskCounter diskCounter(String cpuSource, Configuration conf) {
        DiskCounter configured = DiskSources.from(conf, java.nio.file.Path.of("/proc"),
                problem -> LOG.warn("Libra reporter for {}: {}", serverName, problem));
        return new DiskCounter(null, configured.name()) {
            @Override
            java.util.Optional<long[]> read() {
                return RUNNING.size() > 1 || cpuSource.equals("threads") ? java.util.Optional.empty() : configured.read();
            }

            @Override
            String name() {
                return configured.name();
            }
        };
    }

    /** RPC handlers are named {@code ...port=<rpc port>}, other server threads {@code host:<port>} or {@code ,<port>,}. */
    static boolean ownThread(String threadName, int rpcPort) {
        return threadName.contains("port=" + rpcPort) || threadName.contains(":" + rpcPort)
                || threadName.contains("," + rpcPort + ",");
    }

    private void sampleQuietly(LoadSampler sampler, ServerTraffic traffic, LoadReportMBean bean) {
        try {
            sampler.sample(traffic).ifPresent(bean::publish);
        } catch (RuntimeException e) {
            LOG.warn("Libra reporter for {}: sampling failed, keeping the previous report", serverName, e);
        }
    }

    private void register(LoadReportMBean bean) {
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        try {
            if (mbs.isRegistered(objectName)) {
                mbs.unregisterMBean(objectName);
            }
            mbs.registerMBean(bean, objectName);
        } catch (JMException e) {
            LOG.warn("Libra reporter for {}: cannot register {}", serverName, objectName, e);
        }
    }

    @Override
    public void stop(CoprocessorEnvironment env) {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (objectName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName);
            } catch (JMException e) {
                LOG.debug("Libra reporter: {} already gone", objectName);
            }
        }
        if (serverName != null) {
            RUNNING.remove(serverName);
            ServerTraffic.forget(serverName);
        }
    }
}
