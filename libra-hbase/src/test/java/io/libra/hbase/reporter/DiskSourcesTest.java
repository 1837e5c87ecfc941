package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk figure's sources on a fake /proc: data devices, the DataNode's process, the RegionServer's own. */
class DiskSourcesTest {
    private static Path proc(Path dir) throws Exception {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("4242"));
        Files.write(proc.resolve("self").resolve("io"), List.of("read_bytes: 100", "write_bytes: 200"));
        Files.write(proc.resolve("4242").resolve("io"), List.of("read_bytes: 1000", "write_bytes: 9000"));
        Files.write(proc.resolve("diskstats"), List.of(
                "   8       0 sda 10 0 80 0 20 0 160 0 0 0 0",
                "   8      16 sdb 10 0 1000 0 20 0 3000 0 0 0 0",
                " 259       0 nvme0n1 10 0 24 0 20 0 48 0 0 0 0"));
        return proc;
    }

    @Test
    void dataDevicesFromDiskstatsInBytes(@TempDir Path dir) throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(DiskSources.DEVICES, "sdb, nvme0n1");
        DiskCounter c = DiskSources.from(conf, proc(dir), p -> { });
        assertThat(c.read()).get().isEqualTo(new long[] {(1000 + 24) * 512L, (3000 + 48) * 512L});
        assertThat(c.name()).isEqualTo("diskstats:nvme0n1,sdb");
    }

    @Test
    void aMissingDeviceFallsBackToTheProcessAndSaysSo(@TempDir Path dir) throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(DiskSources.DEVICES, "sdz");
        DiskCounter c = DiskSources.from(conf, proc(dir), p -> { });
        assertThat(c.read()).get().isEqualTo(new long[] {100, 200});
        assertThat(c.name()).isEqualTo("proc-self-io");
    }

    @Test
    void theCoLocatedDataNodesIoPlusTheRegionServersOwn(@TempDir Path dir) throws Exception {
        Path proc = proc(dir);
        Path pid = dir.resolve("datanode.pid");
        Files.writeString(pid, "4242\n");
        Configuration conf = new Configuration(false);
        conf.set(DiskSources.DATANODE_PID_FILE, pid.toString());
        List<String> problems = new ArrayList<>();
        DiskCounter c = DiskSources.from(conf, proc, problems::add);
        assertThat(c.read()).get().isEqualTo(new long[] {1100, 9200});
        assertThat(c.name()).isEqualTo("datanode-proc-io+proc-self-io");

        Files.writeString(pid, "999\n"); // the DataNode restarted elsewhere, or we may not read it
        assertThat(c.read()).get().isEqualTo(new long[] {100, 200});
        assertThat(c.name()).isEqualTo("proc-self-io");
        c.read();
        assertThat(problems).singleElement().asString().contains(DiskSources.DATANODE_PID_FILE);
    }

    @Test
    void withoutConfigurationTheRegionServersOwnIo(@TempDir Path dir) throws Exception {
        DiskCounter c = DiskSources.from(new Configuration(false), proc(dir), p -> { });
        assertThat(c.read()).get().isEqualTo(new long[] {100, 200});
        assertThat(c.name()).isEqualTo("proc-self-io");
    }
}
