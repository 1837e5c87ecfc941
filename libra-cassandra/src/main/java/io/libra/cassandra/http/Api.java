package io.libra.cassandra.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.collect.RingModelBuilder;
import io.libra.cassandra.exec.Job;
import io.libra.core.plan.Plan;
import io.libra.core.ring.AddNodeAdvisor;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.RingTopology;
import io.libra.core.ring.VnodeRing;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The routes, free of Netty: method, path, Authorization header and body in; status and body
 * out. Every refusal is a 4xx with one line in {@code {"error": ...}}.
 */
public final class Api {
    private static final String V1 = "/api/v1/";
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Api.class);
    private final Daemon daemon;

    public Api(Daemon daemon) {
        this.daemon = daemon;
    }

    /** An HTTP answer. */
    public record Response(int status, String contentType, String body) {
        static Response json(int status, JsonNode body) {
            try {
                return new Response(status, "application/json", Json.MAPPER.writeValueAsString(body) + "\n");
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        static Response error(int status, String message) {
            ObjectNode o = Json.object();
            o.put("error", message);
            return json(status, o);
        }
    }

    /**
     * {@link #handle}, with any failure of ours turned into a one-line 500 that shows no internal
     * text: the exception goes to the log under an incident id the answer names.
     */
    public Response handleSafely(String method, String uri, String authorization, byte[] body) {
        try {
            return handle(method, uri, authorization, body);
        } catch (RuntimeException e) {
            String incident = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
            LOG.error("internal error {} answering {} {}", incident, method, uri, e);
            return Response.error(500, "internal error (incident " + incident + " in the sidecar's log)");
        }
    }

    public Response handle(String method, String uri, String authorization, byte[] body) {
        String path = uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri;
        if (path.equals("/metrics")) {
            return method.equals("GET") ? new Response(200, "text/plain; version=0.0.4; charset=utf-8", daemon.metrics())
                    : notAllowed(method, path, "GET");
        }
        if (!path.startsWith(V1)) {
            return Response.error(404, "no such endpoint: " + method + " " + path);
        }
        String route = path.substring(V1.length());
        switch (route) {
            case "health":
                return get(method, path) ? health() : notAllowed(method, path, "GET");
            case "status":
                return get(method, path) ? Response.json(200, Views.status(daemon.view())) : notAllowed(method, path, "GET");
            case "load":
                return get(method, path) ? Response.json(200, Views.load(daemon.view())) : notAllowed(method, path, "GET");
            case "snapshot":
                return get(method, path) ? snapshot() : notAllowed(method, path, "GET");
            case "plan":
                return get(method, path) ? Response.json(200, Views.plan(daemon.view())) : notAllowed(method, path, "GET");
            case "rebalance":
                return post(method, path, authorization, () -> rebalance(body));
            case "pause":
                return post(method, path, authorization, () -> {
                    daemon.pause();
                    return paused();
                });
            case "resume":
                return post(method, path, authorization, () -> {
                    daemon.resume();
                    return paused();
                });
            case "advice/add-node":
                return get(method, path) ? addNode(uri) : notAllowed(method, path, "GET");
            case "jobs":
                return get(method, path) ? Response.json(200, Views.jobs(daemon.jobs())) : notAllowed(method, path, "GET");
            default:
                if (route.startsWith("jobs/") && route.endsWith("/abort")) {
                    String id = route.substring("jobs/".length(), route.length() - "/abort".length());
                    return post(method, path, authorization, () -> abort(id));
                }
                if (route.startsWith("jobs/")) {
                    return get(method, path) ? job(route.substring("jobs/".length())) : notAllowed(method, path, "GET");
                }
                return Response.error(404, "no such endpoint: " + method + " " + path);
        }
    }

    /** 200 while the measuring loop runs, 503 once it has died: for a service manager or a load balancer. */
    private Response health() {
        ObjectNode o = Views.health(daemon.view());
        return Response.json(o.path("status").asText().equals("up") ? 200 : 503, o);
    }

    /** The modelled window as libra.snapshot/v1, byte for byte what the plan's {@code snapshot} hash names. */
    private Response snapshot() {
        DaemonView v = daemon.view();
        if (v.snapshotJson() == null) {
            return Response.error(503, "no snapshot yet: " + v.problem());
        }
        return new Response(200, "application/json", v.snapshotJson());
    }

    /**
     * GET /api/v1/advice/add-node?count=N[&dc=D&rack=R][&tokens=T1,T2]: initial_tokens for N joining nodes
     * (1..AddNodeAdvisor.MAX_COUNT, default 1); dc and rack place them where NetworkTopologyStrategy
     * needs it and the ring's nodes are in more than one place; tokens (an initial_token line's value)
     * are weighed by the same model for one joining node.
     */
    private Response addNode(String uri) {
        String q = uri.contains("?") ? uri.substring(uri.indexOf('?') + 1) : "";
        int count = 1;
        Map<String, String> place = new HashMap<>();
        List<Long> evaluate = List.of();
        for (String kv : q.split("&")) {
            if (kv.isEmpty()) {
                continue;
            }
            String[] p = kv.split("=", 2);
            if (p[0].equals("dc") || p[0].equals("rack")) {
                place.put(p[0], p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "");
                continue;
            }
            if (p[0].equals("tokens")) {
                try {
                    evaluate = Views.tokens(p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "");
                } catch (IllegalArgumentException e) {
                    return Response.error(400, "query " + e.getMessage());
                }
                continue;
            }
            if (!p[0].equals("count")) {
                return Response.error(400, "query " + p[0] + ": unknown parameter (count, dc, rack and tokens are accepted)");
            }
            try {
                count = Integer.parseInt(p.length > 1 ? p[1] : "");
            } catch (NumberFormatException e) {
                return Response.error(400, "query count: must be a whole number from 1 to " + AddNodeAdvisor.MAX_COUNT
                        + ", got \"" + (p.length > 1 ? p[1] : "") + "\"");
            }
            if (count < 1 || count > AddNodeAdvisor.MAX_COUNT) {
                return Response.error(400, "query count: must be from 1 to " + AddNodeAdvisor.MAX_COUNT + ", got " + count);
            }
        }
        if (place.size() == 1 || place.values().stream().anyMatch(String::isEmpty)) {
            return Response.error(400, "query dc and rack: give both, non-empty, or neither");
        }
        try {
            return addNode(daemon.view(), count, place, evaluate);
        } catch (IllegalArgumentException e) {
            if (!String.valueOf(e.getMessage()).startsWith("tokens: ")) {
                throw e;
            }
            return Response.error(400, "query " + e.getMessage()); // tokens the ring has, or too many for it
        }
    }

    private static Response addNode(DaemonView v, int count, Map<String, String> place, List<Long> evaluate) {
        if (v.observeOnly()) {
            return vnodeAdvice(v, count, place, evaluate);
        }
        if (v.model() == null) {
            return Response.error(503, "no ring model yet: " + v.problem());
        }
        RingLoad ring = v.model().ring();
        RingTopology.Place at = where(place, ring.places());
        if (at == null && ring.placed()) {
            return placeNeeded(ring.places());
        }
        int slices = v.config().planner.slicesPerSubrange;
        ObjectNode advice = Views.addNode(ring, slices, count, at, evaluate);
        AllocatorComparison.of(v.config().advice).ifPresent(c -> c.addTo(advice, ring, slices, count, at));
        return Response.json(200, advice);
    }

    /** On a vnode ring (observed, never planned on): the advice on the last window, modelled now. */
    private static Response vnodeAdvice(DaemonView v, int count, Map<String, String> place, List<Long> evaluate) {
        if (v.window() == null) {
            return Response.error(503, "no window measured yet: " + v.problem());
        }
        VnodeRing ring;
        try {
            ring = new RingModelBuilder(v.config().collection.subrangesPerArc, v.config().planner.estimation(),
                    v.config().diskCapacities())
                    .vnodes(v.window());
        } catch (IllegalStateException | IllegalArgumentException e) {
            return Response.error(503, "the last window cannot be modelled: " + e.getMessage());
        }
        RingTopology.Place at = where(place, ring.places());
        if (at == null && ring.placed()) {
            return placeNeeded(ring.places());
        }
        int slices = v.config().planner.slicesPerSubrange;
        ObjectNode advice = Views.addVnodes(ring, slices, count, at, evaluate);
        AllocatorComparison.of(v.config().advice).ifPresent(c -> c.addTo(advice, ring, slices, count, at));
        return Response.json(200, advice);
    }

    /** The place the query names, else the ring's only one (null when it has several or none). */
    private static RingTopology.Place where(Map<String, String> query, Map<String, RingTopology.Place> places) {
        return query.isEmpty() ? Views.onlyPlace(places) : new RingTopology.Place(query.get("dc"), query.get("rack"));
    }

    private static Response placeNeeded(Map<String, RingTopology.Place> places) {
        return Response.error(400, "query dc and rack: NetworkTopologyStrategy places the replicas and the nodes are in "
                + new TreeSet<>(places.values().stream().map(x -> x.dc() + "/" + x.rack()).toList())
                + ": name the new nodes' data centre and rack");
    }

    private static boolean get(String method, String path) {
        return method.equals("GET");
    }

    private static Response notAllowed(String method, String path, String allowed) {
        return Response.error(405, method + " " + path + ": method not allowed, use " + allowed);
    }

    private Response post(String method, String path, String authorization, java.util.function.Supplier<Response> action) {
        if (!method.equals("POST")) {
            return notAllowed(method, path, "POST");
        }
        String expected = daemon.view().config().http.authToken;
        if (expected == null || expected.isEmpty()) {
            return Response.error(403, "mutating calls are disabled: set http.auth_token in the config");
        }
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return Response.error(401, "Authorization: a bearer token is required for " + path);
        }
        byte[] given = authorization.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, expected.getBytes(StandardCharsets.UTF_8))) {
            return Response.error(401, "Authorization: wrong bearer token");
        }
        return action.get();
    }

    private Response paused() {
        ObjectNode o = Json.object();
        o.put("paused", daemon.view().paused());
        return Response.json(200, o);
    }

    /**
     * Runs the current plan, pinned: the body must name the planId the operator saw in GET /plan;
     * when the plan has changed since, 409 with the new planId, so nothing runs unseen.
     */
    private Response rebalance(byte[] body) {
        RebalanceRequest req;
        try {
            req = RebalanceRequest.parse(body);
        } catch (IllegalArgumentException e) {
            return Response.error(400, e.getMessage());
        }
        DaemonView v = daemon.view();
        Plan plan = v.plan();
        if (plan == null) {
            return stale(409, "no plan to run: " + v.problem(), null);
        }
        if (!plan.isEmpty() && !req.planId().equals(v.planId())) {
            return stale(409, "plan " + req.planId() + " is not the current plan: GET " + V1 + "plan shows plan "
                    + v.planId() + "; review it and name it", v.planId());
        }
        if (plan.isEmpty()) {
            return stale(409, "the plan has no moves: " + plan.detail(), v.planId());
        }
        boolean dry = v.config().execution.dryRun || (req.dryRun() != null && req.dryRun());
        try {
            Job j = daemon.rebalance(plan, v.planId(), dry);
            ObjectNode o = Json.object();
            o.put("jobId", j.id);
            o.put("planId", v.planId());
            o.put("dryRun", dry);
            o.put("moves", j.moves.size());
            o.put("poll", V1 + "jobs/" + j.id);
            return Response.json(202, o);
        } catch (IllegalStateException e) {
            return Response.error(409, e.getMessage());
        }
    }

    private static Response stale(int status, String message, String currentPlanId) {
        ObjectNode o = Json.object();
        o.put("error", message);
        if (currentPlanId != null) {
            o.put("planId", currentPlanId);
        } else {
            o.putNull("planId");
        }
        return Response.json(status, o);
    }

    private Response abort(String id) {
        try {
            Optional<Job> j = daemon.abort(id);
            if (j.isEmpty()) {
                return Response.error(404, "jobs/" + id + ": no such running job");
            }
            ObjectNode o = Json.object();
            o.put("jobId", id);
            o.put("abortRequested", true);
            o.put("detail", "no further move starts; a move in progress completes (Cassandra cannot cancel it), "
                    + "then the job cleans up");
            o.put("poll", V1 + "jobs/" + id);
            return Response.json(202, o);
        } catch (IllegalStateException e) {
            return Response.error(409, e.getMessage());
        }
    }

    private Response job(String id) {
        Optional<Job> j = daemon.job(id);
        return j.<Response>map(x -> Response.json(200, Json.MAPPER.valueToTree(x)))
                .orElseGet(() -> Response.error(404, "jobs/" + id + ": no such job"));
    }
}
