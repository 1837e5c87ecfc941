package io.libra.cassandra.collect;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's requests for one table spread over its local sub-ranges, as reads, writes, read
 * bytes and write bytes per second. Requests are the sampled shares scaled to the table's totals,
 * the unsampled rest spread by token width. Bytes written are the {@code WRITE_SIZE} sampler's,
 * and writes of unsampled bytes (spread by width where no sampler listed them) are taken at the
 * typical size per write of the partitions both write samplers listed: their median, since the few
 * large partitions that sampler seeks out would make a mean speak for the many it passes over. A
 * sub-range's reads are taken at the size its writes show (its values), or at that typical size
 * where it had none, since Cassandra counts no bytes read per partition. So a range of large values
 * carries the disk its requests alone do not name. No bytes without such partitions.
 */
final class TableSpread {
    private final double[] widths;
    /** Per local sub-range: sampled reads, writes, bytes written, and writes of no bytes listed. */
    private final double[][] counts;
    private final double[] sampled = new double[3];
    /** Bytes per write of each partition both write samplers listed. */
    private final List<Double> sizes = new ArrayList<>();

    private TableSpread(List<RingModel.SubRange> local) {
        this.widths = local.stream().mapToDouble(RingModelBuilder::width).toArray();
        this.counts = new double[local.size()][4];
    }

    /**
     * Rates per local sub-range ({@code local}, in token order; {@code ends} every sub-range's end),
     * each {reads, writes, read bytes, write bytes} per second.
     */
    static double[][] rates(Window.TableStat t, List<RingModel.SubRange> local, long[] ends, Window w) {
        TableSpread spread = new TableSpread(local);
        spread.sample(t, local, ends, w);
        return spread.rates(t, w.seconds());
    }

    private void sample(Window.TableStat t, List<RingModel.SubRange> local, long[] ends, Window w) {
        Map<Long, Integer> pos = new HashMap<>();
        for (int k = 0; k < local.size(); k++) {
            pos.put(local.get(k).end(), k);
        }
        for (Window.KeySample s : w.samples()) {
            if (s.node().equals(t.node()) && s.keyspace().equals(t.keyspace()) && s.table().equals(t.table())) {
                Integer k = pos.get(ends[RingModelBuilder.containing(ends, s.token())]);
                if (k != null) {
                    add(counts[k], s);
                }
            }
        }
    }

    private void add(double[] c, Window.KeySample s) {
        double[] sample = {s.reads(), s.writes(), s.writeBytes()};
        for (int d = 0; d < 3; d++) {
            c[d] += sample[d];
            sampled[d] += sample[d];
        }
        if (s.writes() > 0 && s.writeBytes() > 0) {
            sizes.add((double) s.writeBytes() / s.writes());
        } else if (s.writeBytes() == 0) {
            c[3] += s.writes();
        }
    }

    private double[][] rates(Window.TableStat t, double seconds) {
        double perWrite = lowerMedian(sizes);
        for (double[] c : counts) { // partitions the write sampler listed, not the write-size one
            c[2] += c[3] * perWrite;
            sampled[2] += c[3] * perWrite;
        }
        double writes = t.writeOps() * seconds;
        double[] total = {t.readOps() * seconds, writes,
            perWrite > 0 ? sampled[2] + Math.max(0, writes - sampled[1]) * perWrite : 0};
        double width = Arrays.stream(widths).sum();
        double[][] rates = new double[counts.length][4];
        for (int k = 0; k < counts.length; k++) {
            for (int d = 0; d < 3; d++) {
                rates[k][d == 2 ? 3 : d] = share(k, d, total[d], width) / seconds;
            }
            double size = rates[k][1] > 0 ? rates[k][3] / rates[k][1] : perWrite;
            rates[k][2] = rates[k][0] * size;
        }
        return rates;
    }

    /** Sub-range k's part of {@code total}: its sampled share, scaled down to the total or topped up by width. */
    private double share(int k, int d, double total, double width) {
        return sampled[d] >= total && sampled[d] > 0
                ? total * counts[k][d] / sampled[d]
                : counts[k][d] + (total - sampled[d]) * widths[k] / width;
    }

    /** The lower median of the values; 0 when there are none. */
    static double lowerMedian(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get((sorted.size() - 1) / 2);
    }
}
