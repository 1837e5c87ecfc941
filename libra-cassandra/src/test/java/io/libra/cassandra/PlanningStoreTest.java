package io.libra.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.collect.RingModelBuilderTest;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.plan.Plan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RingPlanning's memory across a restart, on real files beside a journal. */
class PlanningStoreTest {
    private final RingModelBuilder builder = new RingModelBuilder(8, EstimationConfig.DEFAULT);
    @TempDir
    Path dir;

    private PlanningStore store() {
        return PlanningStore.beside(dir.resolve("cassandra-journal.json"), "test-ring");
    }

    /** A sidecar's planning as (re)started over the store. */
    private RingPlanning started(int historyWindows) {
        return new RingPlanning(RingPlanningTest.settings(historyWindows), null, store());
    }

    private RingPlanning.Round round(RingPlanning p) {
        return p.plan(builder.build(RingModelBuilderTest.window()));
    }

    @Test
    void aRestartKeepsTheWindowsAndChecksTheForecastOfThePlanCarriedOut() throws IOException {
        RingPlanning before = started(3);
        round(before);
        Plan ran = round(before).plan();
        before.executed(ran);
        assertThat(store().file()).isEqualTo(dir.resolve("cassandra-journal.planning.json"));
        assertThat(Files.readString(store().file())).contains("\"format\":\"libra.cassandra.planning/v1\"");

        RingPlanning after = started(3);
        assertThat(after.windows()).isEqualTo(2);
        assertThat(after.forecastToCheck()).isTrue();
        assertThat(after.restored()).contains("2 window(s)").contains("the forecast of the plan last carried out");
        RingPlanning.Round next = round(after);
        assertThat(next.dropped()).isNull();
        assertThat(next.plan().estimation().windows()).as("this window and the two restored").isEqualTo(3);
        assertThat(next.plan().estimation().lastPredictionError()).as("the restored forecast was checked").isFinite();
    }

    /** The tokens nodes left lately survive a restart, so the daemon's returns stay halved (HalfReturns). */
    @Test
    void aRestartKeepsTheTokensNodesLeftLately() throws IOException {
        RingPlanning before = started(3);
        RingPlanning.Round r = round(before);
        assertThat(r.plan().actions()).isNotEmpty();
        before.executed(r.plan());
        assertThat(before.returns().left()).isNotEmpty();

        RingPlanning after = started(3);
        assertThat(after.returns()).isEqualTo(before.returns());
        assertThat(after.restored()).contains("tokens left lately by " + before.returns().left().size() + " node(s)");

        Files.writeString(store().file(), Files.readString(store().file()).replaceFirst("\"token\":\"[0-9a-f]+\"",
                "\"token\":\"zz\""));
        RingPlanning broken = started(3);
        assertThat(broken.restored()).contains("dropped").contains("tokensLeft.nodes");
        assertThat(broken.returns().left()).isEmpty();
        assertThat(broken.windows()).as("nothing half-restored").isZero();
    }

    @Test
    void theFileHoldsAtMostHistoryWindowsAndARestartWithFewerKeepsTheNewest() throws IOException {
        RingPlanning p = started(2);
        for (int i = 0; i < 4; i++) {
            round(p);
        }
        assertThat(saved().windows()).hasSize(2);
        RingPlanning fewer = started(1);
        assertThat(fewer.windows()).isEqualTo(1);
        assertThat(fewer.forecastToCheck()).isFalse();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("no temp file left behind").containsExactly(store().file());
        }
    }

    @Test
    void aJobStartedOrEndedPartWayLeavesNoForecastOnDisk() {
        RingPlanning p = started(3);
        p.executed(round(p).plan());
        assertThat(saved().executed()).isNotNull();
        p.forgetExecuted();
        assertThat(saved().executed()).isNull();
        assertThat(started(3).forecastToCheck()).isFalse();
    }

    @Test
    void aRingWhoseMembersChangedWhileStoppedDropsTheRestoredForecastAndKeepsTheWindows() {
        RingPlanning p = started(3);
        p.executed(round(p).plan());
        RingPlanning after = started(3);
        RingPlanning.Round r = after.plan(builder.build(RingModelBuilderTest.renamed(RingModelBuilderTest.window(), "n3", "n4")));
        assertThat(r.dropped()).startsWith("ring membership changed [n1, n2, n3] -> [n1, n2, n4]: the forecast to check"
                + " dropped, the 1 earlier windows kept");
        assertThat(r.plan().estimation().windows()).isEqualTo(2);
        assertThat(r.plan().estimation().lastPredictionError()).as("no forecast checked").isNaN();
        assertThat(saved().members()).containsExactlyInAnyOrder("n1", "n2", "n4");
        assertThat(saved().executed()).isNull();
        RingPlanning again = started(3);
        assertThat(again.windows()).as("windows of the old members restored beside the new ones").isEqualTo(2);
        assertThat(again.restored()).doesNotContain("dropped");
    }

    @Test
    void aCorruptFileIsDroppedWithOneLineAndReplacedByTheNextRound() throws IOException {
        RingPlanning p = started(3);
        round(p);
        String whole = Files.readString(store().file());
        Files.writeString(store().file(), whole.substring(0, whole.length() / 2));
        RingPlanning after = started(3);
        assertThat(after.restored()).startsWith("planning history in " + store().file() + " dropped (starting without history): ")
                .doesNotContain("\n");
        assertThat(after.windows()).isZero();
        assertThat(round(after).plan().estimation().windows()).isEqualTo(1);
        assertThat(saved().windows()).hasSize(1);
    }

    @Test
    void aFileOfAnotherFormatOrClusterIsNotRestored() throws IOException {
        round(started(3));
        String ours = Files.readString(store().file());
        Files.writeString(store().file(), ours.replace("\"test-ring\"", "\"other-ring\""));
        assertThat(started(3).restored()).endsWith("saved for cluster \"other-ring\", this is \"test-ring\"");
        Files.writeString(store().file(), "{\"format\": \"libra.snapshot/v1\"}");
        RingPlanning foreign = started(3);
        assertThat(foreign.restored()).endsWith("format is not libra.cassandra.planning/v1");
        assertThat(foreign.windows()).isZero();
        Files.writeString(store().file(), ours.replaceFirst("\"n1\"", "\"n8\"").replaceFirst("\"n2\"", "\"n9\""));
        assertThat(started(3).restored()).contains("share fewer than half of the members [n3, n8, n9]");
    }

    @Test
    void aSaveThatCannotBeWrittenDoesNotStopPlanning() throws IOException {
        Path notADir = Files.writeString(dir.resolve("plain-file"), "x");
        RingPlanning p = new RingPlanning(RingPlanningTest.settings(3), null,
                PlanningStore.beside(notADir.resolve("cassandra-journal.json"), "test-ring"));
        assertThat(round(p).plan().actions()).isNotEmpty();
        assertThat(p.windows()).isEqualTo(1);
    }

    private PlanningStore.Saved saved() {
        return store().load(10).saved();
    }
}
