package io.libra.hbase.balancer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.format.JsonFields;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Each group's {@link PlanMemory} in {@code <hbase.rootdir>/.libra/history-<group>.json}, where a
 * restarted or failover master reads it back. Written whole to a temporary file and renamed, so
 * a reader sees the old file or the new one; at most {@link #MAX_BYTES} (the oldest windows are
 * left out to fit). A file that cannot be read, is too large, or belongs to other servers is
 * ignored with one line per file and problem; nothing here ever throws.
 */
final class HistoryStore {
    static final String FORMAT = "libra.hbase.history/v1";
    static final long MAX_BYTES = 64L << 20;
    /** How often {@link #cleanUp} looks at the directory: listing it is cheap, but not each run. */
    static final Duration CLEAN_EVERY = Duration.ofHours(1);

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final FileSystem fs;
    private final Path dir;
    private final long maxBytes;
    private final Consumer<String> log;
    private final Set<String> said = ConcurrentHashMap.newKeySet();
    private Instant lastCleanUp;

    HistoryStore(FileSystem fs, Path dir, long maxBytes, Consumer<String> log) {
        this.fs = fs;
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.log = log;
    }

    /** The store under {@code hbase.rootdir}, or empty (logged) when that filesystem cannot be opened. */
    static Optional<HistoryStore> under(Configuration conf, Consumer<String> log) {
        try {
            Path root = CommonFSUtils.getRootDir(conf);
            return Optional.of(new HistoryStore(root.getFileSystem(conf), new Path(root, ".libra"), MAX_BYTES, log));
        } catch (IOException | RuntimeException e) {
            log.accept("history is kept in memory only, hbase.rootdir cannot be opened: " + e);
            return Optional.empty();
        }
    }

    /** The file of a group: named by a digest of its server names, which the file also lists. */
    Path fileOf(Set<String> servers) {
        String digest = SnapshotCodec.sha256(String.join("\n", new java.util.TreeSet<>(servers))
                .getBytes(StandardCharsets.UTF_8));
        return new Path(dir, "history-" + digest.substring(0, 16) + ".json");
    }

    /** The saved memory of this group, or empty: no file (silently), or one that cannot be used (logged once). */
    Optional<PlanMemory.State> load(Set<String> servers) {
        Path file = fileOf(servers);
        try {
            if (!fs.exists(file)) {
                return Optional.empty();
            }
            long length = fs.getFileStatus(file).getLen();
            if (length > maxBytes) {
                once(file, "read", "is " + length + " bytes, over the " + maxBytes + " a history may take; ignored");
                return Optional.empty();
            }
            byte[] bytes = new byte[(int) length];
            try (InputStream in = fs.open(file)) {
                org.apache.hadoop.io.IOUtils.readFully(in, bytes, 0, bytes.length);
            }
            return Optional.of(decode(file.toString(), bytes, servers));
        } catch (IOException | RuntimeException e) {
            once(file, "read", "cannot be used, starting from this window: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** Saves the group's memory; a failure is logged once per problem and the run goes on. */
    void save(Set<String> servers, PlanMemory.State state) {
        Path file = fileOf(servers);
        Path tmp = new Path(dir, "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
        try {
            byte[] bytes = encode(servers, state);
            fs.mkdirs(dir);
            try (OutputStream out = fs.create(tmp, true)) {
                out.write(bytes);
            }
            // HDFS refuses to rename onto an existing file: the old one goes first
            if (!fs.rename(tmp, file) && !(fs.delete(file, false) && fs.rename(tmp, file))) {
                throw new IOException("rename of " + tmp + " failed");
            }
        } catch (IOException | RuntimeException e) {
            once(file, "write", "cannot be written, history kept in memory only: " + e);
            try {
                fs.delete(tmp, false);
            } catch (IOException ignored) {
                // nothing more to do: the next save tries again
            }
        }
    }

    /** Deletes the file of a group that can never come back (one of its servers is no longer live). */
    void forget(Set<String> servers) {
        Path file = fileOf(servers);
        try {
            if (fs.delete(file, false)) {
                log.accept("history file " + file + " deleted: a server of its group is no longer live");
            }
        } catch (IOException | RuntimeException e) {
            once(file, "delete", "cannot be deleted: " + e);
        }
    }

    /**
     * Deletes the history files (and temporary files a crashed master left) not written since
     * {@code now − maxAge}: every run saves its group's file, so such a file belongs to a group
     * that is gone (removed, or its servers regrouped). Runs at most once per {@link #CLEAN_EVERY};
     * returns how many files were deleted. Other files in the directory are left alone.
     */
    int cleanUp(Instant now, Duration maxAge) {
        if (lastCleanUp != null && now.isBefore(lastCleanUp.plus(CLEAN_EVERY))) {
            return 0;
        }
        lastCleanUp = now;
        long oldest = now.minus(maxAge).toEpochMilli();
        int deleted = 0;
        try {
            if (!fs.exists(dir)) {
                return 0;
            }
            for (FileStatus f : fs.listStatus(dir)) {
                String name = f.getPath().getName();
                boolean ours = name.startsWith("history-") && name.endsWith(".json")
                        || name.startsWith(".history-") && name.endsWith(".tmp");
                if (ours && f.isFile() && f.getModificationTime() < oldest && fs.delete(f.getPath(), false)) {
                    deleted++;
                }
            }
        } catch (IOException | RuntimeException e) {
            once(dir, "clean", "cannot be cleaned up: " + e);
        }
        if (deleted > 0) {
            log.accept("deleted " + deleted + " history file(s) under " + dir + " not written for " + maxAge
                    + " (groups gone)");
        }
        return deleted;
    }

    private byte[] encode(Set<String> servers, PlanMemory.State state) throws IOException {
        List<ClusterSnapshot> windows = new ArrayList<>(state.windows());
        while (true) {
            byte[] bytes = JSON.writeValueAsBytes(tree(servers, windows, state));
            if (bytes.length <= maxBytes || windows.isEmpty()) {
                return bytes;
            }
            windows.remove(0);
        }
    }

    private static ObjectNode tree(Set<String> servers, List<ClusterSnapshot> windows, PlanMemory.State state) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        ArrayNode names = root.putArray("servers");
        new java.util.TreeSet<>(servers).forEach(names::add);
        ArrayNode w = root.putArray("windows");
        windows.forEach(s -> w.add(SnapshotCodec.toTree(s)));
        if (state.carriedOut() != null) {
            root.set("carriedOut", PlanCodec.toTree(state.carriedOut(), null));
        }
        root.put("splitsRequested", state.splitsRequested());
        if (!state.ownLoad().isEmpty()) {
            PlanCodec.writeOwnLoad(root.putArray("ownLoad"), state.ownLoad());
        }
        PlanCodec.writeFlowError(root, state.flowError());
        return root;
    }

    private static PlanMemory.State decode(String source, byte[] bytes, Set<String> servers) throws IOException {
        JsonFields f = new JsonFields(source);
        ObjectNode root = f.parse(bytes);
        if (!FORMAT.equals(root.path("format").asText())) {
            throw f.error("format", "not a " + FORMAT + " file");
        }
        List<String> names = new ArrayList<>();
        f.array(root, "", "servers").forEach(n -> names.add(n.asText()));
        if (!new java.util.TreeSet<>(names).equals(new java.util.TreeSet<>(servers))) {
            throw f.error("servers", "another group's history (" + names.size() + " other servers)");
        }
        List<ClusterSnapshot> windows = new ArrayList<>();
        ArrayNode w = f.array(root, "", "windows");
        for (int i = 0; i < w.size(); i++) {
            windows.add(SnapshotCodec.read(new JsonFields(source + " " + JsonFields.at("windows", i)),
                    f.object(w.get(i), JsonFields.at("windows", i))));
        }
        JsonNode plan = root.get("carriedOut");
        Plan carriedOut = plan == null || plan.isNull() ? null
                : PlanCodec.read(source + " carriedOut", JSON.writeValueAsBytes(plan));
        return new PlanMemory.State(windows, carriedOut, f.optionalInt(root, "", "splitsRequested", 0, 0),
                f.has(root, "ownLoad") ? PlanCodec.readOwnLoad(f, root, "") : List.of(), PlanCodec.readFlowError(f, root, ""));
    }

    /** One line per file and kind of problem (read, write, delete, clean), however often it recurs. */
    private void once(Path file, String kind, String problem) {
        if (said.add(file.getName() + " " + kind)) {
            log.accept("history file " + file + " " + problem);
        }
    }
}
