package io.libra.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.OwnLoad;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanCodecTest {
    private static final Reason WHY = new Reason(Dimension.CPU,
            List.of(Constraint.LOAD_CONSTRAINT, Constraint.INTERFERENCE_CONSTRAINT, Constraint.BENEFIT_THRESHOLD),
            new NodeDeviation("rs-2", 0.31, 0.12), new NodeDeviation("rs-5", -0.2, -0.05), "rs-2 cpu 1.31 > 1 + λ");

    @Test
    void everyActionTypeRoundTrips() {
        Plan plan = new Plan("libra", List.of(
                new SplitAction("r-7", "7a00", "r-7.l", "r-7.r", 0.4, WHY),
                new MoveAction("r-7.r", "rs-2", "rs-5", 1.5e8, WHY),
                new MergeAction(List.of("r-1", "r-2"), "r-1+2", "rs-3", new Reason(null, List.of(Constraint.COLD_NEIGHBOURS), null, null, null)),
                new MoveTokenAction("n1", "8000000000000000", "9a00000000000000", null)),
                new Balance(1.5, 1.4, 0.5), new Balance(1.04, 1.03, 0.04), PlanStatus.PLANNED, "3 actions");
        String json = PlanCodec.write(plan, "abc123");
        PlanDocument back = PlanCodec.readDocument("plan.json", json.getBytes(StandardCharsets.UTF_8));
        assertThat(back.plan()).isEqualTo(plan);
        assertThat(back.snapshotSha256()).isEqualTo("abc123");
        assertThat(json).contains("\"type\" : \"moveToken\"").contains("\"type\" : \"merge\"").contains("\"merged\" : \"r-1+2\"").contains("\"load-constraint\"");
    }

    @Test
    void aRevertAndTheMovesItTookBackRoundTrip() {
        Reason back = new Reason(Dimension.DISK, List.of(Constraint.REVERT), new NodeDeviation("rs-5", 0.3, 0.1),
                new NodeDeviation("rs-2", -0.1, 0.0), "the last plan's moves left the measured Δ worse, 0.080 → 0.200: taking them back");
        Plan revert = new Plan("libra", List.of(new MoveAction("r-9", "rs-5", "rs-2", 1e8, back)),
                new Balance(1.2, 1.1, 0.2), new Balance(1.1, 1.1, 0.1), PlanStatus.PLANNED, "1 actions")
                .withTakenBack(List.of(new MoveAction("r-9", "rs-2", "rs-5", 1e8, null)));
        String json = PlanCodec.write(revert, "abc123");
        Plan read = PlanCodec.read("plan.json", json.getBytes(StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(revert);
        assertThat(read.isRevert()).isTrue();
        assertThat(json).contains("\"revert\"").contains("\"takenBack\"");
        assertThatThrownBy(() -> PlanCodec.read("p.json", ("{\"format\": \"libra.plan/v1\", \"strategy\": \"libra\", \"actions\": [],"
                + " \"takenBack\": [{\"type\": \"merge\", \"regions\": [\"a\", \"b\"], \"merged\": \"ab\", \"node\": \"n\"}]}")
                .getBytes(StandardCharsets.UTF_8))).hasMessage("p.json: takenBack[0].type: must be move");
    }

    @Test
    void minimalDocumentOfTheFormatReads() {
        String json = """
                {"format": "libra.plan/v1", "strategy": "libra", "snapshot": "sha",
                 "actions": [{"type": "split", "region": "r-0007", "splitKey": "7a00000000000000", "left": "r-0007.l", "right": "r-0007.r"},
                             {"type": "move", "region": "r-0007.r", "from": "rs-2", "to": "rs-5"}],
                 "predicted": {"cpuMaxOverMean": 1.04, "diskMaxOverMean": 1.03}}
                """;
        Plan p = PlanCodec.read("p.json", json.getBytes(StandardCharsets.UTF_8));
        assertThat(p.actions()).hasSize(2);
        assertThat(p.status()).isEqualTo(PlanStatus.PLANNED);
        assertThat(p.predicted().imbalanceDegree()).isEqualTo(0.04, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(((SplitAction) p.actions().get(0)).ratio()).isEqualTo(0.5);
        assertThat(p.before()).isNull();
    }

    @Test
    void faultsCarrySourcePathAndReason() {
        assertThatThrownBy(() -> PlanCodec.read("p.json", "{\"format\": \"libra.plan/v1\", \"strategy\": \"\", \"actions\": []}"
                .getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.source()).isEqualTo("p.json");
                    assertThat(e.jsonPath()).isEqualTo("strategy");
                    assertThat(e.reason()).isEqualTo("must be a non-empty string");
                    assertThat(e.getMessage()).isEqualTo("p.json: strategy: must be a non-empty string");
                });
    }

    @Test
    void theLoadNodesCarryOfTheirOwnRoundTrips() {
        Estimation how = new Estimation("learnt", 4, 0.02, 0.03, "cpu: learnt", List.of(
                new OwnLoad("rs-2", OwnLoad.Kind.SPEED, null), new OwnLoad("rs-5", null, OwnLoad.Kind.BACKGROUND)));
        Plan plan = new Plan("libra", List.of(), new Balance(1.05, 1.04, 0.05), new Balance(1.05, 1.04, 0.05),
                PlanStatus.BALANCED, "balanced", List.of(), how);
        String json = PlanCodec.write(plan, "abc123");

        assertThat(PlanCodec.read("plan.json", json.getBytes(StandardCharsets.UTF_8)).estimation()).isEqualTo(how);
        assertThat(json).contains("\"ownLoad\"").contains("\"cpu\" : \"speed\"").contains("\"disk\" : \"background\"");
        assertThatThrownBy(() -> PlanCodec.read("p.json", ("{\"format\": \"libra.plan/v1\", \"strategy\": \"libra\","
                + " \"actions\": [], \"estimation\": {\"model\": \"learnt\", \"ownLoad\": [{\"id\": \"rs-2\", \"cpu\": \"fast\"}]}}")
                .getBytes(StandardCharsets.UTF_8))).hasMessage("p.json: estimation.ownLoad[0].cpu: must be background or speed, got \"fast\"");
    }

    @Test
    void theFlowErrorRoundTripsAndABadOneIsNamed() {
        Estimation how = new Estimation("learnt", 3, 0.02, 0.03, "cpu: learnt", List.of(), new FlowError(0.12, 0.3));
        Plan plan = new Plan("libra", List.of(), new Balance(1.05, 1.04, 0.05), new Balance(1.05, 1.04, 0.05),
                PlanStatus.BALANCED, "balanced", List.of(), how);
        String json = PlanCodec.write(plan, "abc123");

        assertThat(PlanCodec.read("plan.json", json.getBytes(StandardCharsets.UTF_8)).estimation()).isEqualTo(how);
        assertThat(json).contains("\"flowError\" : {").contains("\"rate\" : 0.12");
        assertThatThrownBy(() -> PlanCodec.read("p.json", ("{\"format\": \"libra.plan/v1\", \"strategy\": \"libra\","
                + " \"actions\": [], \"estimation\": {\"model\": \"learnt\", \"flowError\": {\"rate\": -1, \"weight\": 1}}}")
                .getBytes(StandardCharsets.UTF_8))).hasMessageStartingWith("p.json: estimation.flowError.rate: ");
    }
}
