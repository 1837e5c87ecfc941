package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Plan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A group's saved history on the local filesystem, as a restarted master reads it back. */
class HistoryStoreTest {
    private static final Set<String> GROUP = Set.of("rs-1,16020,1", "rs-2,16020,1");
    private static final Set<String> OTHER = Set.of("rs-3,16020,1", "rs-4,16020,1");

    @TempDir
    java.nio.file.Path root;
    private final List<String> logged = new ArrayList<>();

    private HistoryStore store(long maxBytes) throws Exception {
        return new HistoryStore(FileSystem.getLocal(new Configuration()), new Path(root.toUri()), maxBytes,
                logged::add);
    }

    private static PlanMemory.State state(int windows) {
        List<ClusterSnapshot> w = new ArrayList<>();
        ClusterSnapshot s = Skewed.snapshot();
        for (int i = 0; i < windows; i++) {
            w.add(s);
            s = Skewed.after(s, java.util.Map.of(), s.capturedAt().plusSeconds(60));
        }
        Plan plan = Planner.builder().build().plan(s).plan();
        return new PlanMemory.State(w, plan, 1, List.of(new io.libra.core.plan.OwnLoad("rs-2",
                io.libra.core.plan.OwnLoad.Kind.SPEED, io.libra.core.plan.OwnLoad.Kind.BACKGROUND)),
                new io.libra.core.plan.FlowError(0.07, 0.25));
    }

    @Test
    void whatIsSavedIsReadBackAndNoTemporaryFileStays() throws Exception {
        PlanMemory.State saved = state(3);
        store(HistoryStore.MAX_BYTES).save(GROUP, saved);
        store(HistoryStore.MAX_BYTES).save(GROUP, saved); // over the first file
        Optional<PlanMemory.State> read = store(HistoryStore.MAX_BYTES).load(GROUP);
        assertThat(read).isPresent();
        assertThat(read.get().windows()).extracting(ClusterSnapshot::capturedAt)
                .isEqualTo(saved.windows().stream().map(ClusterSnapshot::capturedAt).toList());
        assertThat(read.get().windows().get(2).regions()).isEqualTo(saved.windows().get(2).regions());
        assertThat(read.get().carriedOut().actions()).isEqualTo(saved.carriedOut().actions());
        assertThat(read.get().ownLoad()).isEqualTo(saved.ownLoad()).isNotEmpty();
        assertThat(read.get().flowError()).isEqualTo(saved.flowError()).isNotNull();
        assertThat(read.get().carriedOut().forecast()).hasSameSizeAs(saved.carriedOut().forecast());
        for (int i = 0; i < saved.carriedOut().forecast().size(); i++) {
            var was = saved.carriedOut().forecast().get(i);
            var is = read.get().carriedOut().forecast().get(i);
            assertThat(is.id()).isEqualTo(was.id());
            assertThat(is.cpu()).isCloseTo(was.cpu(), org.assertj.core.data.Offset.offset(1e-9));
            assertThat(is.diskBytesPerSec()).as("the format keeps whole bytes/s")
                    .isCloseTo(was.diskBytesPerSec(), org.assertj.core.data.Offset.offset(1.0));
        }
        assertThat(read.get().splitsRequested()).isEqualTo(1);
        try (var files = Files.list(root)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")))
                    .singleElement().asString().startsWith("history-").endsWith(".json");
        }
        assertThat(store(HistoryStore.MAX_BYTES).load(OTHER)).as("no file for that group").isEmpty();
        assertThat(logged).isEmpty();
    }

    @Test
    void aCorruptFileIsIgnoredWithOneLine() throws Exception {
        HistoryStore store = store(HistoryStore.MAX_BYTES);
        Files.writeString(java.nio.file.Path.of(store.fileOf(GROUP).toUri()), "{\"format\": \"libra.hbase.hist", StandardCharsets.UTF_8);
        assertThat(store.load(GROUP)).isEmpty();
        assertThat(store.load(GROUP)).isEmpty();
        assertThat(logged).singleElement().asString().contains("cannot be used");
    }

    @Test
    void anotherGroupsFileIsIgnored() throws Exception {
        HistoryStore store = store(HistoryStore.MAX_BYTES);
        store.save(OTHER, state(1));
        Files.move(java.nio.file.Path.of(store.fileOf(OTHER).toUri()), java.nio.file.Path.of(store.fileOf(GROUP).toUri()));
        assertThat(store.load(GROUP)).isEmpty();
        assertThat(logged).singleElement().asString().contains("another group's history");
    }

    @Test
    void aHistoryOverTheCapLeavesOutItsOldestWindows() throws Exception {
        store(HistoryStore.MAX_BYTES).save(GROUP, state(1));
        long oneWindow = Files.size(java.nio.file.Path.of(store(HistoryStore.MAX_BYTES).fileOf(GROUP).toUri()));
        HistoryStore small = store(oneWindow + oneWindow / 2);
        PlanMemory.State three = state(3);
        small.save(GROUP, three);
        PlanMemory.State read = small.load(GROUP).orElseThrow();
        List<java.time.Instant> all = three.windows().stream().map(ClusterSnapshot::capturedAt).toList();
        assertThat(read.windows()).extracting(ClusterSnapshot::capturedAt).as("the newest windows that fit")
                .isEqualTo(all.subList(3 - read.windows().size(), 3)).hasSizeBetween(1, 2);
        assertThat(store(oneWindow / 2).load(GROUP)).as("a file over the cap is not read").isEmpty();
        assertThat(logged).singleElement().asString().contains("over the");
    }

    @Test
    void aRootThatCannotBeWrittenIsLoggedOnceNeverThrown() throws Exception {
        Files.writeString(root.resolve("blocked"), "a file where the directory should be");
        HistoryStore store = new HistoryStore(FileSystem.getLocal(new Configuration()),
                new Path(root.resolve("blocked").toUri()), HistoryStore.MAX_BYTES, logged::add);
        store.save(GROUP, state(1));
        store.save(GROUP, state(1));
        assertThat(store.load(GROUP)).isEmpty();
        assertThat(logged).singleElement().asString().contains("cannot be written");
    }

    @Test
    void theStoreLivesUnderHbaseRootdir() {
        Configuration conf = new Configuration();
        conf.set(HConstants.HBASE_DIR, root.toUri().toString());
        HistoryStore store = HistoryStore.under(conf, logged::add).orElseThrow();
        assertThat(store.fileOf(GROUP).getParent().toString()).endsWith("/.libra");
        assertThat(store.fileOf(GROUP)).isEqualTo(store.fileOf(Set.of("rs-2,16020,1", "rs-1,16020,1")));
    }

    @Test
    void filesNotWrittenForTheMaxAgeAreDeletedAndNothingElse() throws Exception {
        HistoryStore store = store(HistoryStore.MAX_BYTES);
        FileSystem fs = FileSystem.getLocal(new Configuration());
        java.time.Instant now = java.time.Instant.now();
        long twoDaysAgo = now.minus(java.time.Duration.ofDays(2)).toEpochMilli();
        store.save(GROUP, state(1));
        store.save(OTHER, state(1));
        fs.setTimes(store.fileOf(OTHER), twoDaysAgo, -1);
        Path leftover = new Path(root.toUri().toString(), ".history-0123.json.dead.tmp");
        Path foreign = new Path(root.toUri().toString(), "notes.txt");
        for (Path p : List.of(leftover, foreign)) {
            fs.create(p).close();
            fs.setTimes(p, twoDaysAgo, -1);
        }
        assertThat(store.cleanUp(now, java.time.Duration.ofDays(1))).isEqualTo(2);
        assertThat(fs.exists(store.fileOf(OTHER))).as("a group gone for two days").isFalse();
        assertThat(fs.exists(leftover)).as("a crashed master's temporary file").isFalse();
        assertThat(fs.exists(foreign)).as("not Libra's").isTrue();
        assertThat(store.load(GROUP)).as("a group written just now").isPresent();
        assertThat(logged).singleElement().asString().contains("deleted 2 history file(s)");

        store.save(OTHER, state(1));
        fs.setTimes(store.fileOf(OTHER), twoDaysAgo, -1);
        assertThat(store.cleanUp(now.plusSeconds(60), java.time.Duration.ofDays(1))).as("at most once an hour").isZero();
        assertThat(store.cleanUp(now.plus(HistoryStore.CLEAN_EVERY), java.time.Duration.ofDays(1))).isEqualTo(1);
    }

    @Test
    void aForgottenGroupsFileIsDeleted() throws Exception {
        HistoryStore store = store(HistoryStore.MAX_BYTES);
        store.save(GROUP, state(1));
        store.save(OTHER, state(1));
        store.forget(GROUP);
        store.forget(GROUP);
        assertThat(store.load(GROUP)).isEmpty();
        assertThat(store.load(OTHER)).isPresent();
        assertThat(logged).singleElement().asString().contains("deleted").contains("no longer live");
        assertThat(store(HistoryStore.MAX_BYTES).cleanUp(java.time.Instant.now(), java.time.Duration.ofDays(1)))
                .as("nothing old").isZero();
    }
}
