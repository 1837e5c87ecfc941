package io.libra.hbase.reporter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Bytes the process has read from and written to storage so far, from {@code /proc/self/io}
 * ({@code read_bytes}, {@code write_bytes}: what reached the block layer, page-cache hits
 * excluded). Empty where the file is missing or unreadable (not Linux, a restricted
 * container); the reporter then falls back to the user bytes its regions served.
 */
class DiskCounter {
    private final Path file;
    private final String name;

    DiskCounter(Path file) {
        this(file, "proc-self-io");
    }

    DiskCounter(Path file, String name) {
        this.file = file;
        this.name = name;
    }

    static DiskCounter procSelfIo() {
        return new DiskCounter(Path.of("/proc/self/io"));
    }

    /** What the report says the disk figure came from ({@code DiskSource}). */
    String name() {
        return name;
    }

    /** {read_bytes, write_bytes}, or empty when unreadable. */
    Optional<long[]> read() {
        try {
            return parse(Files.readAllLines(file));
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    static Optional<long[]> parse(List<String> lines) {
        long read = -1;
        long write = -1;
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            try {
                if (key.equals("read_bytes")) {
                    read = Long.parseLong(value);
                } else if (key.equals("write_bytes")) {
                    write = Long.parseLong(value);
                }
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return read >= 0 && write >= 0 ? Optional.of(new long[] {read, write}) : Optional.empty();
    }
}
