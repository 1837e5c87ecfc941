package io.libra.hbase.reporter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;

/**
 * Where the reporter reads the node's disk bytes, most faithful first. On HDFS the WAL, flush
 * and compaction writes are done by DataNodes (this host's and the pipeline replicas'), so the
 * RegionServer's own {@code /proc/self/io} misses them: configure the data devices
 * ({@code /proc/diskstats}) or the co-located DataNode's pid file. On a local filesystem or cloud
 * storage the RegionServer does its own I/O and {@code /proc/self/io} is right. Each source falls
 * back to the next when it cannot be read; the report's {@code DiskSource} names the one used.
 */
final class DiskSources {
    /** Comma-separated block devices holding the data, as named in /proc/diskstats (e.g. {@code sdb,nvme0n1}). */
    static final String DEVICES = "hbase.libra.reporter.disk.devices";
    /** The co-located DataNode's pid file; its {@code /proc/<pid>/io} plus the RegionServer's own. */
    static final String DATANODE_PID_FILE = "hbase.libra.reporter.datanode.pid.file";
    static final int SECTOR = 512;

    private DiskSources() {
    }

    /** The configured sources in order of preference, ending with the RegionServer process's own. */
    static DiskCounter from(Configuration conf, Path proc, Consumer<String> problems) {
        List<DiskCounter> chain = new ArrayList<>();
        String[] devices = conf.getTrimmedStrings(DEVICES);
        if (devices.length > 0) {
            chain.add(diskstats(proc.resolve("diskstats"), new TreeSet<>(Arrays.asList(devices))));
        }
        String pidFile = conf.getTrimmed(DATANODE_PID_FILE);
        if (pidFile != null && !pidFile.isEmpty()) {
            chain.add(dataNode(Path.of(pidFile), proc, problems));
        }
        chain.add(new DiskCounter(proc.resolve("self").resolve("io")));
        return first(chain);
    }

    /** Sectors read and written on {@code devices}, in bytes, from {@code /proc/diskstats}. */
    static DiskCounter diskstats(Path file, Set<String> devices) {
        return new DiskCounter(file, "diskstats:" + String.join(",", devices)) {
            @Override
            Optional<long[]> read() {
                try {
                    return parseDiskstats(Files.readAllLines(file), devices);
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
        };
    }

    /** {read, written} bytes of the devices; empty unless every device is listed. */
    static Optional<long[]> parseDiskstats(List<String> lines, Set<String> devices) {
        long read = 0;
        long written = 0;
        int found = 0;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // major minor name reads merged sectors-read ms writes merged sectors-written ...
            if (f.length >= 10 && devices.contains(f[2])) {
                read += Long.parseLong(f[5]) * SECTOR;
                written += Long.parseLong(f[9]) * SECTOR;
                found++;
            }
        }
        return found == devices.size() ? Optional.of(new long[] {read, written}) : Optional.empty();
    }

    /** The DataNode's {@code /proc/<pid>/io} (its pid re-read each time: it may restart) plus this process's. */
    static DiskCounter dataNode(Path pidFile, Path proc, Consumer<String> problems) {
        DiskCounter self = new DiskCounter(proc.resolve("self").resolve("io"));
        return new DiskCounter(pidFile, "datanode-proc-io+proc-self-io") {
            private boolean warned;

            @Override
            Optional<long[]> read() {
                try {
                    String pid = Files.readString(pidFile).trim();
                    Optional<long[]> dn = new DiskCounter(proc.resolve(pid).resolve("io")).read();
                    Optional<long[]> own = self.read();
                    if (dn.isPresent() && own.isPresent()) {
                        return Optional.of(new long[] {dn.get()[0] + own.get()[0], dn.get()[1] + own.get()[1]});
                    }
                } catch (IOException | RuntimeException e) {
                    // reported once below
                }
                if (!warned) {
                    warned = true;
                    problems.accept(String.format(Locale.ROOT, "%s: cannot read the DataNode's I/O through %s "
                            + "(needs the same user as the DataNode, or root); falling back", DATANODE_PID_FILE, pidFile));
                }
                return Optional.empty();
            }
        };
    }

    /** The first source that reads; {@link DiskCounter#name()} is the one that answered last. */
    static DiskCounter first(List<DiskCounter> chain) {
        return new DiskCounter(null, chain.get(0).name()) {
            private String used = chain.get(chain.size() - 1).name();

            @Override
            Optional<long[]> read() {
                for (DiskCounter c : chain) {
                    Optional<long[]> v = c.read();
                    if (v.isPresent()) {
                        used = c.name();
                        return v;
                    }
                }
                return Optional.empty();
            }

            @Override
            String name() {
                return used;
            }
        };
    }
}
