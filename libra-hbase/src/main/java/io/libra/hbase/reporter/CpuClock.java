package io.libra.hbase.reporter;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.function.Predicate;

/** CPU time consumed so far, in nanoseconds, by the process or by a set of its threads. */
interface CpuClock {
    /** Nanoseconds of CPU used so far, or -1 when this JVM cannot tell. */
    long cpuNanos();

    String name();

    /** {@code ProcessCpuTime} of the JVM: the RegionServer's own figure when it has the JVM to itself. */
    static CpuClock process() {
        return new CpuClock() {
            @Override
            public long cpuNanos() {
                java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
                if (os instanceof com.sun.management.OperatingSystemMXBean) {
                    return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
                }
                return -1;
            }

            @Override
            public String name() {
                return "process";
            }
        };
    }

    /**
     * CPU of the threads whose names identify one RegionServer (its RPC handlers carry
     * {@code port=<rpc port>}): used when several RegionServers share one JVM, as in a mini
     * cluster, where the process figure cannot be split between them. Threads that ended take
     * their time with them, so this undercounts a little.
     */
    static CpuClock threads(Predicate<String> threadName) {
        return new CpuClock() {
            @Override
            public long cpuNanos() {
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
                    return -1;
                }
                long total = 0;
                for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
                    if (info != null && threadName.test(info.getThreadName())) {
                        total += Math.max(0, mx.getThreadCpuTime(info.getThreadId()));
                    }
                }
                return total;
            }

            @Override
            public String name() {
                return "threads";
            }
        };
    }
}
