package io.libra.cassandra.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.PlanIds;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** POST /rebalance runs only the plan the operator named; the API against a stub daemon. */
class PlanPinningTest {
    private Plan plan = plan("8000000000000005");

    private static Plan plan(String to) {
        return new Plan("libra-ring/greedy", List.of(new MoveTokenAction("n2", "8000000000000000", to, null, 1e6)),
                null, null, PlanStatus.PLANNED, "");
    }

    private final StubDaemon daemon = new StubDaemon(() -> {
        SidecarConfig c = new SidecarConfig();
        c.http.authToken = "t";
        return new DaemonView(c, Instant.EPOCH, 1, null, null, null, plan, PlanIds.of(plan), null, null, null, null, false, true, 3,
                false, null, null);
    });

    private JsonNode post(Api api, int status, String body) throws Exception {
        Api.Response r = api.handleSafely("POST", "/api/v1/rebalance", "Bearer t", body.getBytes(StandardCharsets.UTF_8));
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void onlyTheCurrentPlanRunsAndAStaleIdGetsTheNewOne() throws Exception {
        Api api = new Api(daemon);
        String seen = PlanIds.of(plan);
        plan = plan("8000000000000009"); // a new window planned something else
        JsonNode stale = post(api, 409, "{\"plan_id\": \"" + seen + "\"}");
        assertThat(stale.path("planId").asText()).isEqualTo(PlanIds.of(plan)).isNotEqualTo(seen);
        assertThat(stale.path("error").asText()).startsWith("plan " + seen + " is not the current plan");
        assertThat(daemon.started).isEmpty();
        JsonNode ok = post(api, 202, "{\"plan_id\": \"" + stale.path("planId").asText() + "\", \"dry_run\": true}");
        assertThat(ok.path("planId").asText()).isEqualTo(PlanIds.of(plan));
        assertThat(daemon.started).containsExactly(PlanIds.of(plan));
    }

    @Test
    void thePlanIdIsRequiredAndChecked() throws Exception {
        Api api = new Api(daemon);
        assertThat(post(api, 400, "{}").path("error").asText()).startsWith("body.plan_id: required");
        assertThat(post(api, 400, "{\"plan_id\": 7}").path("error").asText()).startsWith("body.plan_id: must be the planId");
        assertThat(post(api, 400, "{\"plan\": \"x\"}").path("error").asText()).startsWith("body.plan: unknown field");
        assertThat(daemon.started).isEmpty();
    }
}
