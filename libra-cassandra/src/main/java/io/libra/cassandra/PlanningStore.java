package io.libra.cassandra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.estimate.History;
import io.libra.core.format.JsonFields;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.plan.Plan;
import io.libra.core.ring.HalfReturns;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RingPlanning}'s memory on disk, beside the job journal: the ring's members, the last
 * windows, the plan last carried out in full and the tokens nodes left lately, so a restarted
 * sidecar estimates from the same windows, still checks that plan's forecast and still goes only
 * halfway back toward those tokens. Written whole (temp file + rename) after every
 * change. A file that is not ours, cannot be read, is over {@link #MAX_BYTES} or disagrees with
 * itself is dropped with one log line: the sidecar then starts from no history, as it would
 * without the file.
 */
final class PlanningStore {
    static final String FORMAT = "libra.cassandra.planning/v1";
    /** Ten windows of a large ring stay far below this; a bigger file is not one we wrote. */
    static final long MAX_BYTES = 256L << 20;
    private static final Logger LOG = LoggerFactory.getLogger(PlanningStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path file;
    private final String cluster;

    /**
     * What is kept.
     *
     * @param members  the ring's node ids when it was saved
     * @param windows  earlier windows, oldest first
     * @param executed the plan last carried out in full, whose forecast the next window checks, or null
     * @param returns  the tokens nodes left in the last rounds, which a new plan goes only halfway back toward
     */
    record Saved(Set<String> members, List<ClusterSnapshot> windows, Plan executed, HalfReturns returns) {
        Saved {
            members = Set.copyOf(members);
            windows = List.copyOf(windows);
            returns = returns == null ? HalfReturns.NONE : returns;
        }
    }

    /**
     * What loading found.
     *
     * @param saved what to start from, or null (no file, or the file was dropped)
     * @param line  what happened, for the log and /status; null when there was no file
     */
    record Loaded(Saved saved, String line) {
    }

    /** @param cluster the configured cluster name: a file saved under another is not this ring's */
    PlanningStore(Path file, String cluster) {
        this.file = file;
        this.cluster = cluster;
    }

    /** {@code cassandra-journal.json} -> {@code cassandra-journal.planning.json} in the same directory. */
    static PlanningStore beside(Path journal, String cluster) {
        String name = journal.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return new PlanningStore(journal.resolveSibling(base + ".planning.json"), cluster);
    }

    Path file() {
        return file;
    }

    /** Reads the file, keeping at most {@code maxWindows} of the newest windows. Never throws. */
    Loaded load(int maxWindows) {
        if (!Files.exists(file)) {
            return new Loaded(null, null);
        }
        String line;
        Saved saved = null;
        try {
            saved = read(maxWindows);
            line = "planning history restored from " + file + ": " + saved.windows().size() + " window(s), "
                    + (saved.executed() == null ? "no forecast to check" : "the forecast of the plan last carried out")
                    + (saved.returns().left().isEmpty() ? "" : ", tokens left lately by " + saved.returns().left().size()
                            + " node(s)");
        } catch (IOException | RuntimeException e) {
            line = "planning history in " + file + " dropped (starting without history): " + firstLine(e);
        }
        LOG.info("{}", line);
        return new Loaded(saved, line);
    }

    private Saved read(int maxWindows) throws IOException {
        long size = Files.size(file);
        if (size > MAX_BYTES) {
            throw new IllegalArgumentException(size + " bytes, over " + MAX_BYTES + ": not a file this sidecar wrote");
        }
        JsonFields f = new JsonFields(file.toString());
        ObjectNode root = f.parse(Files.readAllBytes(file));
        if (!FORMAT.equals(root.path("format").asText())) {
            throw new IllegalArgumentException("format is not " + FORMAT);
        }
        String savedFor = f.string(root, "", "cluster");
        if (!savedFor.equals(cluster)) {
            throw new IllegalArgumentException("saved for cluster \"" + savedFor + "\", this is \"" + cluster + "\"");
        }
        Set<String> members = new TreeSet<>();
        f.array(root, "", "members").forEach(m -> members.add(m.asText()));
        ArrayNode ws = f.array(root, "", "windows");
        List<ClusterSnapshot> windows = new ArrayList<>();
        for (int i = Math.max(0, ws.size() - maxWindows); i < ws.size(); i++) {
            ClusterSnapshot w = SnapshotCodec.read(f, f.object(ws.get(i), JsonFields.at("windows", i)));
            if (!History.sharesEnough(members, ids(w))) {
                throw new IllegalArgumentException("windows[" + i + "]: nodes " + ids(w) + " share fewer than half of"
                        + " the members " + members);
            }
            windows.add(w);
        }
        JsonNode executed = root.path("executed");
        Plan plan = executed.isObject()
                ? PlanCodec.read(file + " executed", JSON.writeValueAsBytes(executed)) : null;
        return new Saved(members, windows, plan, f.has(root, "tokensLeft") ? tokensLeft(f, root) : HalfReturns.NONE);
    }

    /** {@code tokensLeft}: {@code round}, and per node id the tokens it left, each with its round. */
    private static HalfReturns tokensLeft(JsonFields f, ObjectNode root) {
        ObjectNode o = f.object(root, "", "tokensLeft");
        int round = f.optionalInt(o, "tokensLeft", "round", 0, 0);
        ObjectNode nodes = f.object(o, "tokensLeft", "nodes");
        Map<String, List<HalfReturns.Left>> left = new TreeMap<>();
        nodes.fieldNames().forEachRemaining(node -> {
            String path = JsonFields.at("tokensLeft.nodes", node);
            ArrayNode tokens = f.array(nodes, "tokensLeft.nodes", node);
            List<HalfReturns.Left> out = new ArrayList<>();
            for (int i = 0; i < tokens.size(); i++) {
                String at = JsonFields.at(path, i);
                ObjectNode t = f.object(tokens.get(i), at);
                out.add(new HalfReturns.Left(token(f, t, at), f.optionalInt(t, at, "round", 0, 0)));
            }
            left.put(node, out);
        });
        return new HalfReturns(left, round);
    }

    /** A token as plans write it ({@link Tokens#toKey}), its field named where it is not one. */
    private static long token(JsonFields f, ObjectNode t, String at) {
        try {
            return Tokens.fromKey(f.string(t, at, "token"));
        } catch (IllegalArgumentException e) {
            throw f.error(JsonFields.at(at, "token"), e.getMessage());
        }
    }

    /**
     * Replaces the file with {@code s}. A failed write deletes the old file, so a restart never
     * finds an older state than the one in memory; it is logged, and planning goes on.
     */
    void save(Saved s) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("cluster", cluster);
        ArrayNode members = root.putArray("members");
        new TreeSet<>(s.members()).forEach(members::add);
        ArrayNode windows = root.putArray("windows");
        s.windows().forEach(w -> windows.add(SnapshotCodec.toTree(w)));
        if (s.executed() != null) {
            root.set("executed", PlanCodec.toTree(s.executed(), null));
        }
        if (!s.returns().left().isEmpty()) {
            ObjectNode tokensLeft = root.putObject("tokensLeft");
            tokensLeft.put("round", s.returns().round());
            ObjectNode nodes = tokensLeft.putObject("nodes");
            new TreeMap<>(s.returns().left()).forEach((node, left) -> {
                ArrayNode tokens = nodes.putArray(node);
                left.forEach(l -> tokens.addObject().put("token", Tokens.toKey(l.token())).put("round", l.round()));
            });
        }
        Path tmp = null;
        try {
            tmp = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName().toString(), ".tmp");
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            LOG.warn("planning history {} not saved, removed so a restart starts without it: {}", file, firstLine(e));
            deleteQuietly(tmp);
            deleteQuietly(file);
        }
    }

    static Set<String> ids(ClusterSnapshot s) {
        return s.nodes().stream().map(Node::id).collect(Collectors.toCollection(TreeSet::new));
    }

    private static void deleteQuietly(Path p) {
        try {
            if (p != null) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.warn("cannot remove {}: {}", p, e.getMessage());
        }
    }

    private static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
