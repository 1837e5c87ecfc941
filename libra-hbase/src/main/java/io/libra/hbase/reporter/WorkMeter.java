package io.libra.hbase.reporter;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures the work a region causes on the thread that does it: the thread's CPU time
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}) and its storage bytes
 * ({@code /proc/thread-self/io}: {@code read_bytes + write_bytes}) around an operation.
 * Requests are sampled, one in {@code every} per thread, and the sample counts {@code every}
 * times; flushes and compactions are rare and long, so each is measured. A thread that cannot be
 * measured (no thread CPU time, no /proc) adds nothing.
 */
final class WorkMeter {
    static final int DEFAULT_EVERY = 64;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Path THREAD_IO = Path.of("/proc/thread-self/io");

    /** A start point: thread CPU nanos and I/O bytes when the operation began, and its weight. */
    static final class Start {
        long cpu;
        long io;
        int weight;
    }

    private final int every;
    private final ThreadLocal<int[]> countdown = ThreadLocal.withInitial(() -> new int[1]);
    private final ThreadLocal<Start> request = ThreadLocal.withInitial(Start::new);
    private final ThreadLocal<Start> background = ThreadLocal.withInitial(Start::new);
    private final boolean cpuSupported;
    private volatile boolean ioReadable = Files.isReadable(THREAD_IO);

    WorkMeter(int every) {
        this.every = Math.max(1, every);
        this.cpuSupported = THREADS.isCurrentThreadCpuTimeSupported();
    }

    /** Before a request: starts a sample on one request in {@code every} on this thread. */
    void beginRequest() {
        int[] c = countdown.get();
        if (--c[0] > 0) {
            return;
        }
        c[0] = every;
        begin(request.get(), every);
    }

    /** After a request: adds the sampled work, scaled up, to {@code region}. */
    void endRequest(RegionTraffic region) {
        end(request.get(), region);
    }

    /** Before a flush or compaction of the region, on the worker thread. */
    void beginBackground() {
        begin(background.get(), 1);
    }

    void endBackground(RegionTraffic region) {
        end(background.get(), region);
    }

    private void begin(Start s, int weight) {
        s.weight = weight;
        s.cpu = cpuSupported ? THREADS.getCurrentThreadCpuTime() : -1;
        s.io = threadIo();
    }

    private void end(Start s, RegionTraffic region) {
        if (s.weight == 0 || region == null) {
            return;
        }
        int w = s.weight;
        s.weight = 0;
        if (s.cpu >= 0) {
            long cpu = THREADS.getCurrentThreadCpuTime() - s.cpu;
            region.measuredCpuNanos.add(Math.max(0, cpu) * w);
        }
        if (s.io >= 0) {
            long io = threadIo();
            if (io >= 0) {
                region.measuredIoBytes.add(Math.max(0, io - s.io) * w);
            }
        }
    }

    /** read_bytes + write_bytes of this thread, or -1. */
    private long threadIo() {
        if (!ioReadable) {
            return -1;
        }
        try (InputStream in = Files.newInputStream(THREAD_IO)) {
            return parse(in.readAllBytes());
        } catch (IOException | RuntimeException e) {
            ioReadable = false; // not Linux, or a kernel without thread-self: stop trying
            return -1;
        }
    }

    /** Sum of the read_bytes and write_bytes lines of a /proc/.../io file, without building strings per line. */
    static long parse(byte[] text) {
        String s = new String(text, java.nio.charset.StandardCharsets.US_ASCII);
        return field(s, "read_bytes: ") + field(s, "\nwrite_bytes: ");
    }

    private static long field(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) {
            return 0;
        }
        long v = 0;
        for (int j = i + key.length(); j < s.length() && Character.isDigit(s.charAt(j)); j++) {
            v = v * 10 + (s.charAt(j) - '0');
        }
        return v;
    }
}
