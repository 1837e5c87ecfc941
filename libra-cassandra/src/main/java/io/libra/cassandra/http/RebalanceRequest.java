package io.libra.cassandra.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * The body of POST /api/v1/rebalance: {@code {"plan_id": "...", "dry_run": true|false}}.
 * {@code plan_id} is required (plan pinning); {@code dry_run} is optional (null when absent).
 */
record RebalanceRequest(String planId, Boolean dryRun) {
    static RebalanceRequest parse(byte[] body) {
        if (body == null || body.length == 0 || new String(body, StandardCharsets.UTF_8).isBlank()) {
            throw missingPlanId();
        }
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("body: invalid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException("body: must be a JSON object");
        }
        String planId = null;
        Boolean dry = null;
        for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
            String f = it.next();
            JsonNode v = n.get(f);
            if (f.equals("dry_run")) {
                if (!v.isBoolean()) {
                    throw new IllegalArgumentException("body.dry_run: must be true or false, got " + v);
                }
                dry = v.booleanValue();
            } else if (f.equals("plan_id")) {
                if (!v.isTextual() || v.textValue().isBlank()) {
                    throw new IllegalArgumentException("body.plan_id: must be the planId from GET /api/v1/plan, got " + v);
                }
                planId = v.textValue();
            } else {
                throw new IllegalArgumentException("body." + f + ": unknown field (plan_id and dry_run are accepted)");
            }
        }
        if (planId == null) {
            throw missingPlanId();
        }
        return new RebalanceRequest(planId, dry);
    }

    private static IllegalArgumentException missingPlanId() {
        return new IllegalArgumentException("body.plan_id: required: name the planId of the plan you reviewed "
                + "(GET /api/v1/plan), e.g. {\"plan_id\": \"3fa2c1d09b7e\"}");
    }
}
