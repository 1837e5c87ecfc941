package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.format.FormatException;
import io.libra.core.format.SnapshotCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The digest a plan names its snapshot by is of the bytes that were parsed, even when taken later. */
class SnapshotDigestTest {
    @TempDir
    Path dir;

    @Test
    void aSnapshotReadForPlanningIsNamedByTheSha256OfItsBytes() throws IOException {
        Path file = dir.resolve("snapshot.json");
        Files.writeString(file, BadSnapshotTest.VALID + "\n\n", StandardCharsets.UTF_8);

        Inputs.LoadedSnapshot s = Inputs.snapshot(file);

        assertThat(s.sha256()).isEqualTo(SnapshotCodec.sha256(Files.readAllBytes(file)));
        assertThat(s.snapshot().regions()).hasSize(2);
    }

    @Test
    void theDigestTakenInTheBackgroundIsTheDigestTakenHere() throws IOException {
        Path file = dir.resolve("snapshot.json");
        byte[] bytes = BadSnapshotTest.VALID.getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);

        String here = SnapshotDigest.after(file, crc(bytes)).get();
        String behind = SnapshotDigest.after(file, crc(bytes)).inBackground().get();

        assertThat(behind).isEqualTo(here).isEqualTo(SnapshotCodec.sha256(bytes));
    }

    @Test
    void aFileChangedAfterItWasParsedIsAnErrorNamingItNotTheDigestOfOtherBytes() throws IOException {
        Path file = dir.resolve("snapshot.json");
        byte[] parsed = BadSnapshotTest.VALID.getBytes(StandardCharsets.UTF_8);
        Files.writeString(file, BadSnapshotTest.VALID.replace("\"cpuUsage\": 4", "\"cpuUsage\": 5"), StandardCharsets.UTF_8);

        SnapshotDigest digest = SnapshotDigest.after(file, crc(parsed)).inBackground();

        assertThatThrownBy(digest::get).isInstanceOf(FormatException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("changed while it was read");
    }

    @Test
    void aFileRemovedAfterItWasParsedIsAnErrorNamingIt() throws IOException {
        Path file = dir.resolve("snapshot.json");
        byte[] parsed = BadSnapshotTest.VALID.getBytes(StandardCharsets.UTF_8);

        SnapshotDigest digest = SnapshotDigest.after(file, crc(parsed));

        assertThatThrownBy(digest::get).isInstanceOf(FormatException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("cannot read it again");
    }

    /** A pipe can be read once: its snapshot is parsed and named from that one read (a second read would wait forever). */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSnapshotFromAPipeIsPlannedAndNamedByTheBytesThatCameThrough() throws Exception {
        Path fifo = dir.resolve("snapshot.pipe");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        byte[] bytes = BadSnapshotTest.VALID.getBytes(StandardCharsets.UTF_8);
        Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, bytes);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();

        Inputs.LoadedSnapshot s = Inputs.snapshot(fifo);
        writer.join();

        assertThat(s.snapshot().regions()).hasSize(2);
        assertThat(s.sha256()).isEqualTo(SnapshotCodec.sha256(bytes));
    }

    private static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
