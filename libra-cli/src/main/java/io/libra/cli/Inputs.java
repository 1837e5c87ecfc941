package io.libra.cli;

import io.libra.core.format.FormatException;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.PlanDocument;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.Planner;
import io.libra.core.estimate.History;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/** Reading the commands' inputs and turning option values into core objects, with one-line errors. */
final class Inputs {
    /** Few reads of a large file (each is a system call), little memory. */
    private static final int STREAM_BUFFER = 1 << 20;

    private Inputs() {
    }

    /** A snapshot file as read: its bytes' SHA-256 names it in plans. */
    record LoadedSnapshot(Path path, ClusterSnapshot snapshot, SnapshotDigest digest) {
        String sha256() {
            return digest.get();
        }
    }

    /** As {@link #parsed}, its digest taken now, beside what the caller does next. */
    static LoadedSnapshot snapshot(Path file) {
        LoadedSnapshot s = parsed(file);
        s.digest().inBackground();
        return s;
    }

    /** Streamed when it reads cleanly, else read whole, which names the fault; its digest not yet taken. */
    private static LoadedSnapshot parsed(Path file) {
        CRC32C crc = new CRC32C();
        Optional<ClusterSnapshot> streamed = streamed(file, in -> SnapshotCodec.stream(file.toString(), new CheckedInputStream(in, crc)));
        if (streamed.isPresent()) {
            return new LoadedSnapshot(file, streamed.get(), SnapshotDigest.after(file, crc.getValue()));
        }
        byte[] bytes = readBytes(file);
        return new LoadedSnapshot(file, SnapshotCodec.read(file.toString(), bytes), SnapshotDigest.of(bytes));
    }

    /**
     * {@code read} of the file's content as it streams in, read to its end; empty when it cannot be
     * opened or read, or is not a regular file: a pipe ({@code --snapshot <(curl ...)}) cannot be
     * read a second time, for its digest or for the fault it names, so it is read whole.
     */
    private static Optional<ClusterSnapshot> streamed(Path file, Function<InputStream, Optional<ClusterSnapshot>> read) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), STREAM_BUFFER)) {
            Optional<ClusterSnapshot> s = read.apply(in);
            in.transferTo(OutputStream.nullOutputStream());
            return s;
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The snapshot and its earlier windows (oldest first), read side by side: parsing is most of
     * a large plan's wall time. A window that does not belong (another cluster's nodes, another
     * store, out of order) is an error naming its file and field.
     */
    record Windows(LoadedSnapshot now, List<ClusterSnapshot> history) {
    }

    static Windows windows(Path snapshotFile, List<Path> historyFiles) {
        int threads = Math.min(historyFiles.size(), Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
        if (threads == 0) {
            return new Windows(snapshot(snapshotFile), List.of());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<FutureTask<ClusterSnapshot>> reads = historyFiles.stream()
                    .map(f -> new FutureTask<>(() -> window(f))).toList();
            reads.forEach(pool::execute);
            LoadedSnapshot now = parsed(snapshotFile);
            // then the reads no pool thread has started yet, from the last: the pool takes them from the first
            for (int i = reads.size() - 1; i >= 0; i--) {
                reads.get(i).run();
            }
            List<ClusterSnapshot> windows = new ArrayList<>(reads.size());
            for (FutureTask<ClusterSnapshot> r : reads) {
                windows.add(joined(r));
            }
            now.digest().inBackground();
            return new Windows(now, checked(historyFiles, windows, now.snapshot()));
        } finally {
            pool.shutdownNow();
        }
    }

    /** The task's result; what it threw, unwrapped. */
    static <T> T joined(FutureTask<T> read) {
        try {
            return read.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    /** An earlier window: only what the cost-model fit reads (no key histograms). */
    private static ClusterSnapshot window(Path file) {
        return streamed(file, in -> SnapshotCodec.streamWindow(file.toString(), in))
                .orElseGet(() -> SnapshotCodec.readWindow(file.toString(), readBytes(file)));
    }

    private static List<ClusterSnapshot> checked(List<Path> files, List<ClusterSnapshot> windows, ClusterSnapshot now) {
        try {
            History.check(now, windows);
        } catch (History.MismatchException e) {
            throw new FormatException(files.get(e.window()).toString(), e.field(), e.getMessage().substring(e.field().length() + 2));
        }
        return windows;
    }

    static PlanDocument plan(Path file) {
        return PlanCodec.readDocument(file.toString(), readBytes(file));
    }

    /** A file's bytes; a missing or unreadable file is a {@link FormatException} naming the file. */
    static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new FormatException(file.toString(), FormatException.ROOT, "no such file");
        } catch (IOException e) {
            throw new FormatException(file.toString(), FormatException.ROOT, "cannot read: " + e.getMessage());
        }
    }

    static Planner planner(String strategy, double lambda) {
        try {
            return Planner.builder().strategy(strategy).config(SchedulerConfig.DEFAULT.withLambda(lambda)).build();
        } catch (IllegalArgumentException e) {
            throw new BadInputException("libra: --" + e.getMessage());
        }
    }

    /**
     * Fails now, before a long run, if {@code file} could not be written later: its folder is made
     * and a file is created there and removed again (permission bits alone do not tell, e.g. as root).
     */
    static void checkWritable(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (Files.isDirectory(file)) {
                throw new IOException("is a directory");
            }
            if (Files.exists(file)) {
                if (!Files.isWritable(file)) {
                    throw new IOException("not writable");
                }
                return;
            }
            Files.delete(Files.createFile(file));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + reason(e), e);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return "a file is in the way of " + e.getMessage();
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage();
    }

    static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Through a temporary file beside it and one atomic move, so a reader never sees half a file. */
    static void writeAtomically(Path file, byte[] bytes) {
        Path tmp = null;
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            tmp = Files.createTempFile(parent, "." + file.getFileName(), ".tmp");
            Files.write(tmp, bytes);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + reason(e), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static void deleteQuietly(Path tmp) {
        try {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // a leftover temporary file is harmless; the error that matters was reported
        }
    }

    /** Completion candidates for --strategy. */
    static final class StrategyNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return new ArrayList<>(Strategies.names()).iterator();
        }
    }
}
