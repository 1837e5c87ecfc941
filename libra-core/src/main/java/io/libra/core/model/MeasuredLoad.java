package io.libra.core.model;

/**
 * Load an adapter measured for one region (sampled per-request thread CPU and I/O plus its
 * flushes and compactions), as opposed to load derived from counters. NaN means not measured.
 *
 * @param cpu             busy cores, or NaN
 * @param diskBytesPerSec disk bytes/s, or NaN
 */
public record MeasuredLoad(double cpu, double diskBytesPerSec) {
    public static final MeasuredLoad NONE = new MeasuredLoad(Double.NaN, Double.NaN);

    public MeasuredLoad {
        if (!Double.isNaN(cpu)) {
            Checks.nonNegative("measuredCpu", cpu);
        }
        if (!Double.isNaN(diskBytesPerSec)) {
            Checks.nonNegative("measuredDiskBytesPerSec", diskBytesPerSec);
        }
    }

    public boolean has(Dimension d) {
        return !Double.isNaN(of(d));
    }

    public double of(Dimension d) {
        return d == Dimension.CPU ? cpu : diskBytesPerSec;
    }
}
