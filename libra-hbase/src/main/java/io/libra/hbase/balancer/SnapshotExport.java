package io.libra.hbase.balancer;

import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The balancer's last window as a {@code libra.snapshot/v1} file, for planning offline
 * ({@code libra plan}). Two ways in, as an HBase operator expects:
 * <ul>
 *   <li>{@code hbase.libra.snapshot.dir} on the master: every balance run the caller asked as a
 *       dry run (shell {@code balancer 'dry_run'}, {@code Admin.balance} with {@code setDryRun(true)})
 *       writes {@code libra-snapshot-<UTC time>.json} there;</li>
 *   <li>the master's JMX bean {@code io.libra:type=BalancerSnapshot}: attribute {@code Snapshot}
 *       is the last window's JSON (also served by the master's {@code /jmx} servlet), and the
 *       operation {@code writeSnapshot(path)} writes it to a file on the master.</li>
 * </ul>
 */
public final class SnapshotExport {
    public static final String DOMAIN = "io.libra";
    static final String NAME = DOMAIN + ":type=BalancerSnapshot";
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExport.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /** The operator's view: what the master's JMX shows and can do. */
    public interface BalancerSnapshotMBean {
        /** The last window as {@code libra.snapshot/v1} JSON; empty before the first balance run. */
        String getSnapshot();

        /** When the last window was taken (ISO-8601), or empty. */
        String getCapturedAt();

        int getNodes();

        int getRegions();

        /** Writes the last window to {@code path} on the master; returns the path written. */
        String writeSnapshot(String path) throws IOException;
    }

    private final Supplier<ClusterSnapshot> last;

    SnapshotExport(Supplier<ClusterSnapshot> last) {
        this.last = last;
    }

    /** Writes {@code snapshot} into {@code dir} as {@code libra-snapshot-<UTC time>.json}; the file written. */
    static Path writeInto(Path dir, ClusterSnapshot snapshot) throws IOException {
        Files.createDirectories(dir);
        return write(dir.resolve("libra-snapshot-" + STAMP.format(snapshot.capturedAt()) + ".json"), snapshot);
    }

    /** Written to a temporary file first, so a reader never sees half a snapshot. */
    static Path write(Path file, ClusterSnapshot snapshot) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(parent, ".libra-snapshot", ".tmp");
        try {
            Files.writeString(tmp, SnapshotCodec.write(snapshot), StandardCharsets.UTF_8);
            return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Publishes the bean on the platform MBean server (the master's JMX); logs and carries on if it cannot. */
    void register() {
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName name = new ObjectName(NAME);
            if (mbs.isRegistered(name)) {
                mbs.unregisterMBean(name);
            }
            mbs.registerMBean(new javax.management.StandardMBean(new Bean(), BalancerSnapshotMBean.class), name);
        } catch (JMException | RuntimeException e) {
            LOG.warn("Libra: cannot publish {} on JMX", NAME, e);
        }
    }

    static void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(NAME));
        } catch (JMException | RuntimeException e) {
            LOG.debug("Libra: {} already gone", NAME);
        }
    }

    /** Registered through {@link javax.management.StandardMBean} with its interface. */
    public final class Bean implements BalancerSnapshotMBean {
        @Override
        public String getSnapshot() {
            ClusterSnapshot s = last.get();
            return s == null ? "" : SnapshotCodec.write(s);
        }

        @Override
        public String getCapturedAt() {
            ClusterSnapshot s = last.get();
            return s == null ? "" : s.capturedAt().toString();
        }

        @Override
        public int getNodes() {
            ClusterSnapshot s = last.get();
            return s == null ? 0 : s.nodes().size();
        }

        @Override
        public int getRegions() {
            ClusterSnapshot s = last.get();
            return s == null ? 0 : s.regions().size();
        }

        @Override
        public String writeSnapshot(String path) throws IOException {
            ClusterSnapshot s = last.get();
            if (s == null) {
                throw new IOException("no balance run yet: run the balancer (e.g. balancer 'dry_run') first");
            }
            Path file = Path.of(path);
            Path written = Files.isDirectory(file) ? writeInto(file, s) : write(file, s);
            LOG.info("Libra: snapshot of {} written to {}", s.capturedAt(), written);
            return written.toString();
        }
    }
}
