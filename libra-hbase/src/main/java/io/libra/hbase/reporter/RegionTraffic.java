package io.libra.hbase.reporter;

import java.util.concurrent.atomic.LongAdder;

/** Cumulative user traffic of one region on one RegionServer: requests and payload bytes. */
final class RegionTraffic {
    final LongAdder readOps = new LongAdder();
    final LongAdder writeOps = new LongAdder();
    final LongAdder readBytes = new LongAdder();
    final LongAdder writeBytes = new LongAdder();
    /** Measured work ({@link WorkMeter}): thread CPU nanoseconds and storage bytes, scaled from samples. */
    final LongAdder measuredCpuNanos = new LongAdder();
    final LongAdder measuredIoBytes = new LongAdder();
    final KeySample keys = new KeySample();
    /** The region's end key (empty: the table's last region), for its key histogram. */
    volatile byte[] endKey = new byte[0];

    void read(long ops, long bytes) {
        readOps.add(ops);
        readBytes.add(bytes);
    }

    void write(long ops, long bytes) {
        writeOps.add(ops);
        writeBytes.add(bytes);
    }

    /**
     * The counters now, in the order of {@link LoadReportMBean#REGION_FIELDS} (measured CPU in
     * nanoseconds, measured I/O in bytes, until the sampler turns them into rates).
     */
    long[] sample() {
        return new long[] {readOps.sum(), writeOps.sum(), readBytes.sum(), writeBytes.sum(), measuredCpuNanos.sum(),
            measuredIoBytes.sum()};
    }
}
