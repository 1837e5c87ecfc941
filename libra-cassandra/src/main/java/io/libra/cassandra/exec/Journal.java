package io.libra.cassandra.exec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.libra.cassandra.config.StartupException;
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

    /**
     * Fails with one line unless the journal's directory exists and a file can be created in it
     * (the daemon does not create it: its place and owner are the operator's decision).
     */
    public void checkWritable() {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            throw new StartupException("execution.journal: directory " + dir
                    + " does not exist (create it, writable by the user the sidecar runs as)");
        }
        try {
            Files.deleteIfExists(Files.createTempFile(dir, file.getFileName().toString(), ".probe"));
        } catch (IOException e) {
            throw new StartupException("execution.journal: directory " + dir + " is not writable by user "
                    + System.getProperty("user.name"));
        }
        if (Files.exists(file) && !Files.isReadable(file)) {
            throw new StartupException("execution.journal: " + file + " is not readable by user "
                    + System.getProperty("user.name"));
        }
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

    /** The finished jobs kept beside the journal, oldest first. */
    public Path historyFile() {
        String name = file.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return file.resolveSibling(base + ".history.json");
    }

    /** Adds a finished job to the history, keeping the last {@code keep}. */
    public synchronized void archive(Job job, int keep) {
        java.util.List<Job> all = new java.util.ArrayList<>(history());
        all.removeIf(h -> h.id.equals(job.id));
        all.add(job);
        java.util.List<Job> kept = all.subList(Math.max(0, all.size() - keep), all.size());
        try {
            Path dir = historyFile().toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, historyFile().getFileName().toString(), ".tmp");
            JSON.writeValue(tmp.toFile(), kept);
            Files.move(tmp, historyFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("journal history " + historyFile() + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** The history, oldest first; empty when there is none or it cannot be read (it is informative only). */
    public synchronized java.util.List<Job> history() {
        if (!Files.exists(historyFile())) {
            return java.util.List.of();
        }
        try {
            return java.util.List.of(JSON.readValue(historyFile().toFile(), Job[].class));
        } catch (IOException e) {
            return java.util.List.of();
        }
    }

    public synchronized Optional<Job> read() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), Job.class));
        } catch (IOException e) {
            throw new StartupException("execution.journal: " + file + " is not a journal this sidecar can read: "
                    + e.getMessage().lines().findFirst().orElse("") + " (move it aside to start without it)");
        }
    }
}
