package io.libra.cli;

import io.libra.core.format.FormatException;
import io.libra.core.format.SnapshotCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.FutureTask;
import java.util.zip.CheckedInputStream;
import java.util.zip.CRC32C;

/**
 * The SHA-256 that names a snapshot file in a plan, taken by reading the file again once it is
 * parsed, on a core the planning leaves idle: the launcher's C1-only JIT has no SHA intrinsic, so
 * hashing 100 MB while parsing it cost the plan most of a second. The parse takes a CRC32C of the
 * bytes it read (an intrinsic there too), and the second read must match it, so the digest is of
 * the bytes that were planned on; a file changed in between is an error naming it.
 */
final class SnapshotDigest {
    private final FutureTask<String> task;

    private SnapshotDigest(FutureTask<String> task) {
        this.task = task;
    }

    /** The digest of bytes already in hand. */
    static SnapshotDigest of(byte[] bytes) {
        FutureTask<String> done = new FutureTask<>(() -> SnapshotCodec.sha256(bytes));
        done.run();
        return new SnapshotDigest(done);
    }

    /** The digest of {@code file}, whose bytes summed to {@code parsedCrc} as they were parsed; taken when first asked for or {@link #inBackground}. */
    static SnapshotDigest after(Path file, long parsedCrc) {
        return new SnapshotDigest(new FutureTask<>(() -> hash(file, parsedCrc)));
    }

    /** Starts hashing on a thread of its own; a process that ends first does not wait for it. */
    SnapshotDigest inBackground() {
        Thread t = new Thread(task, "libra-snapshot-digest");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** The hex SHA-256; hashes here unless a background thread has started. */
    String get() {
        task.run();
        return Inputs.joined(task);
    }

    private static String hash(Path file, long parsedCrc) {
        MessageDigest sha256 = SnapshotCodec.sha256();
        CRC32C crc = new CRC32C();
        try (InputStream in = new CheckedInputStream(new DigestInputStream(Files.newInputStream(file), sha256), crc)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new FormatException(file.toString(), FormatException.ROOT, "cannot read it again to take its sha256: " + e.getMessage());
        }
        if (crc.getValue() != parsedCrc) {
            throw new FormatException(file.toString(), FormatException.ROOT,
                    "changed while it was read; nothing was written: run again once the file is complete");
        }
        return HexFormat.of().formatHex(sha256.digest());
    }
}
