package io.libra.cassandra.exec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The job on disk, rewritten atomically (temp file + rename) after every state change, so a
 * restarted daemon finds either the previous or the next state, never half of one.
 */
public final class Journal {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final Path file;

    public Journal(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public synchronized void write(Job job) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            JSON.writeValue(tmp.toFile(), job);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("journal " + file + ": cannot write: " + e.getMessage(), e);
        }
    }

    public synchronized Optional<Job> read() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), Job.class));
        } catch (IOException e) {
            throw new UncheckedIOException("journal " + file + ": unreadable: " + e.getMessage(), e);
        }
    }
}
