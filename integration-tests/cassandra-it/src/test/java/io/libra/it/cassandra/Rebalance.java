package io.libra.it.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.libra.it.Poll;
import io.libra.it.cassandra.SidecarHttp.Reply;
import java.time.Duration;

/** A sidecar's plan run as an operator runs it: wait for a plan with moves, POST it by id, follow the job to its end. */
final class Rebalance {
    private final SidecarHttp api;
    private final String auth;

    Rebalance(SidecarHttp api, String auth) {
        this.api = api;
        this.auth = auth;
    }

    /** The first plan with a token move, within 3 minutes. */
    JsonNode awaitPlan() {
        JsonNode[] plan = new JsonNode[1];
        Poll.until(Duration.ofSeconds(180), "a plan with a token move", () -> {
            plan[0] = api.get("/api/v1/plan").body();
            return plan[0].path("actions").size() > 0;
        });
        return plan[0];
    }

    /** POST /rebalance naming the plan just read (again if a new window re-planned), then the job to its end. */
    JsonNode runToTheEnd() {
        Reply submitted = null;
        for (int attempt = 0; attempt < 5 && (submitted == null || submitted.status() == 409); attempt++) {
            String id = awaitPlan().path("planId").asText();
            submitted = api.post("/api/v1/rebalance", auth, "{\"plan_id\": \"" + id + "\"}");
        }
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(202);
        String poll = submitted.body().path("poll").asText();
        JsonNode[] job = new JsonNode[1];
        Poll.until(Duration.ofSeconds(240), "the job to end with nothing left to clean", () -> {
            job[0] = api.get(poll).body();
            String state = job[0].path("state").asText();
            if (state.equals("FAILED") || state.equals("ABANDONED")) {
                throw new AssertionError("job ended " + state + ": " + job[0]);
            }
            return state.equals("DONE") && job[0].path("pendingCleanup").isEmpty();
        });
        return job[0];
    }
}
