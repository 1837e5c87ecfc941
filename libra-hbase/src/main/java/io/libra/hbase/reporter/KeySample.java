package io.libra.hbase.reporter;

import io.libra.core.model.KeyBucket;
import io.libra.core.model.RegionCounters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Row keys sampled from one region's requests over a window, so that a split can cut the region
 * where its load divides, not at the middle of its key space (which leaves an empty daughter at a
 * table's first and last region). One request in {@link #EVERY} is sampled, drawn at random on
 * the request's own thread: no shared counter is written on the request path, and no periodic
 * request pattern aliases with the sampling. A window keeps at most {@link #CAPACITY} samples by
 * reservoir sampling.
 */
final class KeySample {
    static final int EVERY = 16;
    static final int CAPACITY = 128;
    static final int BUCKETS = 8;

    /** One sampled request: its row key, whether it wrote, how many rows and payload bytes. */
    record Sample(byte[] row, boolean write, long ops, long bytes) {
    }

    private final List<Sample> reservoir = new ArrayList<>(CAPACITY);
    private long seen;

    /** Called on every request; keeps one in {@link #EVERY} on average. */
    void offer(byte[] row, boolean write, long ops, long bytes) {
        if (row == null || java.util.concurrent.ThreadLocalRandom.current().nextInt(EVERY) != 0) {
            return;
        }
        Sample s = new Sample(row, write, ops, bytes);
        synchronized (this) {
            seen++;
            if (reservoir.size() < CAPACITY) {
                reservoir.add(s);
            } else {
                long j = java.util.concurrent.ThreadLocalRandom.current().nextLong(seen);
                if (j < CAPACITY) {
                    reservoir.set((int) j, s);
                }
            }
        }
    }

    /** The window's samples; the next window starts empty. */
    synchronized List<Sample> drain() {
        List<Sample> out = new ArrayList<>(reservoir);
        reservoir.clear();
        seen = 0;
        return out;
    }

    /**
     * Up to {@link #BUCKETS} sub-ranges in key order, each holding an equal share of the samples,
     * their counters the region's {@code rates} (readOps, writeOps, readBytes, writeBytes per
     * second) in proportion to the samples they hold; the last closes at the region's end key.
     * Empty without samples.
     */
    static List<KeyBucket> histogram(List<Sample> samples, byte[] regionEnd, double[] rates) {
        if (samples.isEmpty()) {
            return List.of();
        }
        Sample[] sorted = samples.toArray(new Sample[0]);
        Arrays.sort(sorted, (a, b) -> Bytes.compareTo(a.row(), b.row()));
        double[] total = new double[4];
        for (Sample s : sorted) {
            add(total, s, 1);
        }
        int buckets = Math.min(BUCKETS, sorted.length);
        List<KeyBucket> out = new ArrayList<>(buckets);
        HexFormat hex = HexFormat.of();
        int from = 0;
        for (int b = 0; b < buckets; b++) {
            int to = b == buckets - 1 ? sorted.length : (int) Math.round((double) sorted.length * (b + 1) / buckets);
            while (to < sorted.length && to > from && Bytes.equals(sorted[to - 1].row(), sorted[to].row())) {
                to++; // one key never straddles two buckets
            }
            if (to <= from) {
                continue;
            }
            double[] part = new double[4];
            for (int i = from; i < to; i++) {
                add(part, sorted[i], 1);
            }
            String end = to == sorted.length ? hex.formatHex(regionEnd) : hex.formatHex(successor(sorted[to - 1].row()));
            out.add(new KeyBucket(end, new RegionCounters(share(part, total, rates, 0), share(part, total, rates, 1),
                    share(part, total, rates, 2), share(part, total, rates, 3))));
            from = to;
            if (to == sorted.length) {
                break;
            }
        }
        return out;
    }

    private static void add(double[] acc, Sample s, double w) {
        acc[s.write() ? 1 : 0] += s.ops() * w;
        acc[s.write() ? 3 : 2] += s.bytes() * w;
    }

    private static double share(double[] part, double[] total, double[] rates, int i) {
        return total[i] > 0 ? rates[i] * part[i] / total[i] : 0;
    }

    /** The smallest key after {@code row}: the bucket holds {@code row} itself. */
    private static byte[] successor(byte[] row) {
        return Arrays.copyOf(row, row.length + 1);
    }
}
