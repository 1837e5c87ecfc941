package io.libra.cassandra.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.plan.Balance;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Reason;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.TokenMove;
import java.util.Locale;

/** JSON for the API; plans in {@code libra.plan/v1} with {@code moveToken} actions. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** A ring plan as a libra.plan/v1 document (tokens as 16-digit hex keys, see Tokens). */
    public static ObjectNode plan(RingPlan plan, String snapshotSha256) {
        ObjectNode root = object();
        root.put("format", "libra.plan/v1");
        root.put("strategy", "libra-ring/" + plan.method());
        root.put("snapshot", snapshotSha256 == null ? "" : snapshotSha256);
        root.put("status", plan.status().name().toLowerCase(Locale.ROOT));
        root.put("detail", plan.detail());
        ArrayNode actions = root.putArray("actions");
        for (TokenMove m : plan.moves()) {
            ObjectNode a = actions.addObject();
            a.put("type", "moveToken");
            a.put("node", m.node());
            a.put("fromToken", m.fromKey());
            a.put("toToken", m.toKey());
            a.put("fromTokenDecimal", Long.toString(m.fromToken()));
            a.put("toTokenDecimal", Long.toString(m.toToken()));
            a.put("movedBytes", m.movedBytes());
            reason(a.putObject("reason"), m.reason());
        }
        balance(root.putObject("before"), plan.before());
        balance(root.putObject("predicted"), plan.predicted());
        return root;
    }

    private static void reason(ObjectNode o, Reason r) {
        o.put("criticalDimension", r.criticalDimension().name().toLowerCase(Locale.ROOT));
        ArrayNode passed = o.putArray("passed");
        r.passed().forEach(c -> passed.add(c.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        deviation(o.putObject("source"), r.source());
        deviation(o.putObject("destination"), r.destination());
        o.put("note", r.note());
    }

    private static void deviation(ObjectNode o, NodeDeviation d) {
        o.put("node", d.node());
        o.put("before", d.before());
        o.put("after", d.after());
    }

    public static void balance(ObjectNode o, Balance b) {
        o.put("cpuMaxOverMean", b.cpuMaxOverMean());
        o.put("diskMaxOverMean", b.diskMaxOverMean());
        o.put("imbalanceDegree", b.imbalanceDegree());
    }
}
