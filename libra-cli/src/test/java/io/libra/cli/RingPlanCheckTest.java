package io.libra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.Planner;
import io.libra.core.format.PlanCodec;
import io.libra.core.format.SnapshotCodec;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.KeyRange;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.PlanStatus;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingPlanner;
import io.libra.core.ring.RingPlannerConfig;
import io.libra.core.ring.SnapshotRing;
import io.libra.core.ring.TokenMove;
import io.libra.core.ring.Tokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sidecar's ring plan (moveToken actions) read back by `explain` and `evaluate` with the snapshot it was made from. */
class RingPlanCheckTest {
    private static final int NODES = 4;
    private static final int SUBS = 4;
    @TempDir
    Path dir;
    Path snapshotFile;
    RingPlan ring;

    /** 4 single-token nodes, RF 2, the first arc read 8× harder than the rest: a sidecar's snapshot in shape. */
    @BeforeEach
    void sidecarSnapshotAndPlan() throws IOException {
        List<Region> regions = new ArrayList<>();
        double[] reads = new double[NODES];
        for (int j = 0; j < NODES; j++) {
            long start = token(j);
            for (int s = 0; s < SUBS; s++) {
                long from = Tokens.advance(start, Tokens.clockwise(start, token(j + 1)), s / (double) SUBS);
                long to = s == SUBS - 1 ? token(j + 1) : Tokens.advance(start, Tokens.clockwise(start, token(j + 1)),
                        (s + 1) / (double) SUBS);
                double r = j == 0 ? 800 : 100;
                String startKey = from == Long.MAX_VALUE ? "" : Tokens.toKey(from + 1);
                String endKey = to == Long.MAX_VALUE ? "" : Tokens.toKey(to + 1);
                for (int k = 0; k < 2; k++) {
                    int replica = (j + k) % NODES;
                    reads[replica] += r;
                    regions.add(new Region("ks.t/n" + (j + 1) + "." + s + "@n" + (replica + 1), "ks.t",
                            new KeyRange(startKey, endKey), "n" + (replica + 1), 1e9,
                            new RegionCounters(r, 10, r * 4096, 10 * 4096), List.of(), "n" + (j + 1) + "." + s));
                }
            }
        }
        List<Node> nodes = new ArrayList<>();
        Map<String, List<String>> tokens = new TreeMap<>();
        for (int j = 0; j < NODES; j++) {
            nodes.add(new Node("n" + (j + 1), 8, reads[j] / 2000, reads[j] * 5000));
            tokens.put("n" + (j + 1), List.of(Tokens.toKey(token(j + 1))));
        }
        ClusterSnapshot snapshot = new ClusterSnapshot("cassandra", Instant.parse("2026-01-01T00:00:00Z"), 60, nodes,
                regions, 2, tokens);
        String json = SnapshotCodec.write(snapshot);
        snapshotFile = dir.resolve("snapshot.json");
        Files.writeString(snapshotFile, json);
        ClusterSnapshot read = SnapshotCodec.read("s", json.getBytes(StandardCharsets.UTF_8));
        ring = new RingPlanner(new RingPlannerConfig(0.05, 3, 0, 16, 0.001))
                .plan(SnapshotRing.of(read, Planner.builder().build().estimate(read)));
        assertThat(ring.status()).isEqualTo(PlanStatus.PLANNED);
        Files.writeString(dir.resolve("plan.json"), PlanCodec.write(ring.toPlan(),
                SnapshotCodec.sha256(json.getBytes(StandardCharsets.UTF_8))));
    }

    /** Node k's token: the ring cut in 4 equal arcs, the last ending at the largest token (no arc wraps). */
    private static long token(int k) {
        return Long.MIN_VALUE + k * (1L << 62) - 1;
    }

    @Test
    void evaluatePredictsWhatTheRingPlanPredicted() {
        Cli.Result r = Cli.run("evaluate", "--snapshot", snapshotFile.toString(), "--plan", dir.resolve("plan.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("libra-ring/").contains("token after");
        assertThat(line(r.out(), "imbalance degree")).isEqualTo(String.format(Locale.ROOT, "imbalance degree %.3f %.3f",
                ring.before().imbalanceDegree(), ring.predicted().imbalanceDegree()));
        assertThat(ring.predicted().imbalanceDegree()).isLessThan(ring.before().imbalanceDegree());
        TokenMove last = ring.moves().get(ring.moves().size() - 1);
        assertThat(line(r.out(), last.node() + " ")).endsWith(last.toKey());
    }

    @Test
    void explainShowsEveryTokenMoveWithItsReason() {
        Cli.Result r = Cli.run("explain", "--snapshot", snapshotFile.toString(), "--plan", dir.resolve("plan.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        for (TokenMove m : ring.moves()) {
            assertThat(r.out()).contains(m.fromKey()).contains(m.toKey());
        }
        assertThat(r.out()).contains("Δ");
    }

    @Test
    void aTokenMoveThatDoesNotFitTheRingIsOneLine() throws IOException {
        TokenMove first = ring.moves().get(0);
        Path plan = dir.resolve("plan.json");
        Files.writeString(plan, Files.readString(plan).replace("\"" + first.fromKey() + "\"", "\"" + Tokens.toKey(12345) + "\""));
        Cli.Result r = Cli.run("evaluate", "--snapshot", snapshotFile.toString(), "--plan", plan.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo(plan + ": actions[0].fromToken: node " + first.node() + " holds "
                + first.fromKey() + ", not " + Tokens.toKey(12345));
    }

    /**
     * A ring's windows given without the plan made on the last: a token moved between them, which no
     * region move names, so nothing is recalled and the plan is made as a first plan; the same ring
     * twice recalls a round that held back.
     */
    @Test
    void aRingsWindowsRecallNothingWhenATokenMovedAndAHoldWhenNothingDid() throws IOException {
        String json = Files.readString(snapshotFile);
        Path same = dir.resolve("same.json");
        Files.writeString(same, json.replace("2026-01-01T00:00:00Z", "2025-12-31T23:59:00Z"));
        TokenMove first = ring.moves().get(0);
        Path moved = dir.resolve("moved.json");
        Files.writeString(moved, Files.readString(same).replace("\"" + first.fromKey() + "\"", "\"" + first.toKey() + "\""));

        Cli.Result afterMove = Cli.run("plan", "--snapshot", snapshotFile.toString(), "--history", moved.toString());
        Cli.Result afterNothing = Cli.run("plan", "--snapshot", snapshotFile.toString(), "--history", same.toString());

        assertThat(afterMove.code()).as(afterMove.err()).isZero();
        assertThat(afterMove.out()).doesNotContain("previous plan");
        assertThat(afterNothing.code()).as(afterNothing.err()).isZero();
        assertThat(afterNothing.out()).contains("recalled from the windows: no region moved in the 2 windows given");
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow().replaceAll(" +", " ").strip();
    }
}
