package io.libra.cassandra.collect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** Bytes a process caused to be read from and written to storage, from /proc/&lt;pid&gt;/io. */
final class ProcIo {
    private ProcIo() {
    }

    static OptionalLong bytes(long pid) {
        Path p = Path.of("/proc", Long.toString(pid), "io");
        try {
            long total = 0;
            for (String line : Files.readAllLines(p)) {
                if (line.startsWith("read_bytes:") || line.startsWith("write_bytes:")) {
                    total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return OptionalLong.of(total);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
