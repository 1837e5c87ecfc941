package io.libra.core.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Constraint;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.FlowError;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeForecast;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.OwnLoad;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * Reads and writes {@code libra.plan/v1} (shared/formats.md). Besides the format's split and move
 * actions, Libra writes {@code merge} actions ({@code {"type":"merge","regions":[...],"merged":"id","node":"n"}}),
 * a {@code reason} object per action, {@code sizeBytes} per move and moveToken, {@code ratio} per split, and
 * {@code before}, {@code status}, {@code detail} and {@code takenBack} (the moves a revert took back, which the
 * plans after it carry on) at the top; readers ignore what they do not know.
 * {@code moveToken} actions (Cassandra rings) are read and written as {@link MoveTokenAction}s.
 */
public final class PlanCodec {
    public static final String FORMAT = "libra.plan/v1";

    private PlanCodec() {
    }

    public static String write(Plan plan, String snapshotSha256) {
        try {
            return JsonFields.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(toTree(plan, snapshotSha256)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ObjectNode toTree(Plan plan, String snapshotSha256) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        root.put("strategy", plan.strategy());
        root.put("snapshot", snapshotSha256 == null ? "" : snapshotSha256);
        if (plan.status() != null) {
            root.put("status", plan.status().name().toLowerCase(Locale.ROOT));
        }
        if (plan.detail() != null) {
            root.put("detail", plan.detail());
        }
        ArrayNode actions = root.putArray("actions");
        plan.actions().forEach(a -> writeAction(actions.addObject(), a));
        if (plan.before() != null) {
            writeBalance(root.putObject("before"), plan.before());
        }
        if (plan.predicted() != null || !plan.forecast().isEmpty()) {
            ObjectNode predicted = root.putObject("predicted");
            if (plan.predicted() != null) {
                writeBalance(predicted, plan.predicted());
            }
            writeForecast(predicted, plan.forecast());
        }
        if (plan.estimation() != null) {
            writeEstimation(root.putObject("estimation"), plan.estimation());
        }
        if (!plan.takenBack().isEmpty()) {
            ArrayNode back = root.putArray("takenBack");
            plan.takenBack().forEach(m -> writeAction(back.addObject(), m));
        }
        return root;
    }

    private static void writeAction(ObjectNode o, Action a) {
        o.put("type", a.type());
        if (a instanceof SplitAction s) {
            o.put("region", s.region());
            o.put("splitKey", s.splitKey());
            o.put("left", s.left());
            o.put("right", s.right());
            o.put("ratio", s.ratio());
        } else if (a instanceof MoveAction m) {
            o.put("region", m.region());
            o.put("from", m.from());
            o.put("to", m.to());
            SnapshotCodec.num(o, "sizeBytes", m.sizeBytes());
        } else if (a instanceof MoveTokenAction t) {
            o.put("node", t.node());
            o.put("fromToken", t.fromToken());
            o.put("toToken", t.toToken());
            SnapshotCodec.num(o, "sizeBytes", t.sizeBytes());
        } else {
            MergeAction g = (MergeAction) a;
            g.regions().forEach(o.putArray("regions")::add);
            o.put("merged", g.merged());
            o.put("node", g.node());
        }
        if (a.reason() != null) {
            writeReason(o.putObject("reason"), a.reason());
        }
    }

    private static void writeReason(ObjectNode o, Reason r) {
        if (r.criticalDimension() != null) {
            o.put("criticalDimension", r.criticalDimension().label());
        }
        ArrayNode passed = o.putArray("passed");
        r.passed().forEach(c -> passed.add(constraintName(c)));
        if (r.source() != null) {
            writeDeviation(o.putObject("source"), r.source());
        }
        if (r.destination() != null) {
            writeDeviation(o.putObject("destination"), r.destination());
        }
        if (r.note() != null) {
            o.put("note", r.note());
        }
    }

    /** "load-constraint", "interference-constraint", "benefit-threshold", ... */
    public static String constraintName(Constraint c) {
        return c.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static void writeDeviation(ObjectNode o, NodeDeviation d) {
        o.put("node", d.node());
        o.put("before", d.before());
        o.put("after", d.after());
    }

    private static void writeBalance(ObjectNode o, Balance b) {
        o.put("cpuMaxOverMean", b.cpuMaxOverMean());
        o.put("diskMaxOverMean", b.diskMaxOverMean());
        o.put("imbalanceDegree", b.imbalanceDegree());
    }

    private static void writeForecast(ObjectNode predicted, List<NodeForecast> forecast) {
        if (forecast.isEmpty()) {
            return;
        }
        ArrayNode nodes = predicted.putArray("nodes");
        for (NodeForecast n : forecast) {
            ObjectNode o = nodes.addObject();
            o.put("id", n.id());
            o.put("cpu", n.cpu());
            SnapshotCodec.num(o, "diskBytesPerSec", Math.rint(n.diskBytesPerSec()));
        }
    }

    private static void writeEstimation(ObjectNode o, Estimation e) {
        o.put("model", e.model());
        o.put("windows", e.windows());
        putFinite(o, "fitError", e.fitError());
        putFinite(o, "lastPredictionError", e.lastPredictionError());
        writeFlowError(o, e.flowError());
        if (e.detail() != null) {
            o.put("detail", e.detail());
        }
        if (!e.ownLoad().isEmpty()) {
            writeOwnLoad(o.putArray("ownLoad"), e.ownLoad());
        }
    }

    /** Nodes' own loads as {@code estimation.ownLoad} holds them (also kept by the HBase balancer's history file). */
    public static void writeOwnLoad(ArrayNode array, List<OwnLoad> ownLoad) {
        for (OwnLoad n : ownLoad) {
            ObjectNode x = array.addObject().put("id", n.id());
            putKind(x, "cpu", n.cpu());
            putKind(x, "disk", n.disk());
        }
    }

    private static void putKind(ObjectNode o, String field, OwnLoad.Kind k) {
        if (k != null) {
            o.put(field, k.jsonName());
        }
    }

    /** Unknown figures are left out rather than written as NaN, which JSON cannot hold. */
    private static void putFinite(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        }
    }

    public static Plan read(String sourceName, byte[] bytes) {
        return readDocument(sourceName, bytes).plan();
    }

    public static PlanDocument readDocument(String sourceName, byte[] bytes) {
        JsonFields f = new JsonFields(sourceName);
        ObjectNode root = f.parse(bytes);
        SnapshotCodec.checkFormat(f, root, FORMAT);
        String strategy = f.id(root, "", "strategy");
        String sha = f.has(root, "snapshot") ? f.string(root, "", "snapshot") : "";
        ArrayNode array = f.array(root, "", "actions");
        List<Action> actions = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String p = JsonFields.at("actions", i);
            actions.add(readAction(f, f.object(array.get(i), p), p));
        }
        Balance before = f.has(root, "before") ? readBalance(f, f.object(root, "", "before"), "before") : null;
        ObjectNode predictedNode = f.has(root, "predicted") ? f.object(root, "", "predicted") : null;
        Balance predicted = predictedNode != null && f.has(predictedNode, "cpuMaxOverMean")
                ? readBalance(f, predictedNode, "predicted") : null;
        List<NodeForecast> forecast = predictedNode != null && f.has(predictedNode, "nodes")
                ? readForecast(f, predictedNode) : List.of();
        Estimation how = f.has(root, "estimation") ? readEstimation(f, f.object(root, "", "estimation")) : null;
        PlanStatus status = readStatus(f, root, actions.isEmpty());
        String detail = f.optionalString(root, "", "detail", null);
        return new PlanDocument(new Plan(strategy, actions, before, predicted, status, detail, forecast, how,
                takenBack(f, root)), sha);
    }

    /** The moves a revert took back, which a plan carries on (an extension of formats.md; absent when none). */
    private static List<MoveAction> takenBack(JsonFields f, ObjectNode root) {
        if (!f.has(root, "takenBack")) {
            return List.of();
        }
        return objects(f, root, "", "takenBack", (o, p) -> {
            if (!(readAction(f, o, p) instanceof MoveAction m)) {
                throw f.error(JsonFields.at(p, "type"), "must be move");
            }
            return m;
        });
    }

    private static List<NodeForecast> readForecast(JsonFields f, ObjectNode predicted) {
        return objects(f, predicted, "predicted", "nodes", (o, p) ->
                new NodeForecast(f.id(o, p, "id"), f.nonNegative(o, p, "cpu"), f.nonNegative(o, p, "diskBytesPerSec")));
    }

    /** Each object of the array {@code parent.field}, read with its path ({@code path.field[i]}). */
    private static <T> List<T> objects(JsonFields f, ObjectNode parent, String path, String field,
                                       BiFunction<ObjectNode, String, T> read) {
        ArrayNode array = f.array(parent, path, field);
        List<T> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String p = JsonFields.at(JsonFields.at(path, field), i);
            out.add(read.apply(f.object(array.get(i), p), p));
        }
        return out;
    }

    private static Estimation readEstimation(JsonFields f, ObjectNode o) {
        String p = "estimation";
        return new Estimation(f.string(o, p, "model"), f.optionalInt(o, p, "windows", 1, 1),
                f.has(o, "fitError") ? f.nonNegative(o, p, "fitError") : Double.NaN,
                f.has(o, "lastPredictionError") ? f.nonNegative(o, p, "lastPredictionError") : Double.NaN,
                f.optionalString(o, p, "detail", null), f.has(o, "ownLoad") ? readOwnLoad(f, o, p) : List.of(),
                readFlowError(f, o, p));
    }

    /** {@code flowError} on {@code parent} (an extension of formats.md; also kept by the HBase balancer's history file); nothing when null. */
    public static void writeFlowError(ObjectNode parent, FlowError e) {
        if (e != null) {
            parent.putObject("flowError").put("rate", e.rate()).put("weight", e.weight());
        }
    }

    /** How a node's forecast error grows with the load moved through it, at {@code path.flowError}; null when absent. */
    public static FlowError readFlowError(JsonFields f, ObjectNode parent, String path) {
        if (!f.has(parent, "flowError")) {
            return null;
        }
        ObjectNode o = f.object(parent, path, "flowError");
        String p = JsonFields.at(path, "flowError");
        return new FlowError(f.nonNegative(o, p, "rate"), f.nonNegative(o, p, "weight"));
    }

    /** The nodes an estimate found to carry load of their own (an extension of formats.md), at {@code path.ownLoad}. */
    public static List<OwnLoad> readOwnLoad(JsonFields f, ObjectNode parent, String path) {
        return objects(f, parent, path, "ownLoad", (o, p) -> {
            OwnLoad.Kind cpu = kind(f, o, p, "cpu");
            OwnLoad.Kind disk = kind(f, o, p, "disk");
            if (cpu == null && disk == null) {
                throw f.error(p, "must name cpu or disk");
            }
            return new OwnLoad(f.id(o, p, "id"), cpu, disk);
        });
    }

    private static OwnLoad.Kind kind(JsonFields f, ObjectNode o, String path, String field) {
        String name = f.optionalString(o, path, field, null);
        if (name == null) {
            return null;
        }
        return OwnLoad.Kind.byName(name).orElseThrow(() -> f.error(JsonFields.at(path, field),
                "must be background or speed, got \"" + name + "\""));
    }

    /** One split, move or merge action at {@code path}. */
    public static Action readAction(JsonFields f, ObjectNode o, String path) {
        String type = f.string(o, path, "type");
        Reason reason = f.has(o, "reason") ? readReason(f, f.object(o, path, "reason"), JsonFields.at(path, "reason")) : null;
        switch (type) {
            case "split":
                return new SplitAction(f.id(o, path, "region"), splitKey(f, o, path), f.id(o, path, "left"),
                        f.id(o, path, "right"), ratio(f, o, path), reason);
            case "move":
                return new MoveAction(f.id(o, path, "region"), f.id(o, path, "from"), f.id(o, path, "to"),
                        f.has(o, "sizeBytes") ? f.nonNegative(o, path, "sizeBytes") : 0, reason);
            case "merge":
                return new MergeAction(mergedRegions(f, o, path), f.id(o, path, "merged"), f.id(o, path, "node"), reason);
            case "moveToken":
                return new MoveTokenAction(f.id(o, path, "node"), f.key(o, path, "fromToken"), f.key(o, path, "toToken"),
                        reason, f.has(o, "sizeBytes") ? f.nonNegative(o, path, "sizeBytes") : 0);
            default:
                throw f.error(JsonFields.at(path, "type"), "must be one of split, move, merge, moveToken, got \"" + type + "\"");
        }
    }

    private static String splitKey(JsonFields f, ObjectNode o, String path) {
        String key = f.key(o, path, "splitKey");
        if (key.isEmpty()) {
            throw f.error(JsonFields.at(path, "splitKey"), "must not be empty");
        }
        return key;
    }

    private static double ratio(JsonFields f, ObjectNode o, String path) {
        double r = f.optionalNumber(o, path, "ratio", 0.5);
        if (r < 0 || r > 1) {
            throw f.error(JsonFields.at(path, "ratio"), "must be between 0 and 1, got " + JsonFields.formatDouble(r));
        }
        return r;
    }

    private static List<String> mergedRegions(JsonFields f, ObjectNode o, String path) {
        ArrayNode a = f.array(o, path, "regions");
        String p = JsonFields.at(path, "regions");
        if (a.size() < 2) {
            throw f.error(p, "must name at least 2 regions, got " + a.size());
        }
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < a.size(); k++) {
            JsonNode n = a.get(k);
            if (!n.isTextual() || n.textValue().isEmpty()) {
                throw f.error(JsonFields.at(p, k), "must be a non-empty string, got " + JsonFields.describe(n));
            }
            ids.add(n.textValue());
        }
        return ids;
    }

    public static Reason readReason(JsonFields f, ObjectNode o, String path) {
        Dimension critical = null;
        if (f.has(o, "criticalDimension")) {
            String d = f.string(o, path, "criticalDimension");
            if (!d.equals("cpu") && !d.equals("disk")) {
                throw f.error(JsonFields.at(path, "criticalDimension"), "must be cpu or disk, got \"" + d + "\"");
            }
            critical = d.equals("cpu") ? Dimension.CPU : Dimension.DISK;
        }
        List<Constraint> passed = new ArrayList<>();
        if (f.has(o, "passed")) {
            ArrayNode a = f.array(o, path, "passed");
            for (int k = 0; k < a.size(); k++) {
                passed.add(constraint(f, a.get(k), JsonFields.at(JsonFields.at(path, "passed"), k)));
            }
        }
        NodeDeviation source = f.has(o, "source") ? deviation(f, o, path, "source") : null;
        NodeDeviation destination = f.has(o, "destination") ? deviation(f, o, path, "destination") : null;
        return new Reason(critical, passed, source, destination, f.optionalString(o, path, "note", null));
    }

    private static Constraint constraint(JsonFields f, JsonNode n, String path) {
        if (n.isTextual()) {
            String name = n.textValue().toUpperCase(Locale.ROOT).replace('-', '_');
            for (Constraint c : Constraint.values()) {
                if (c.name().equals(name)) {
                    return c;
                }
            }
        }
        List<String> known = new ArrayList<>();
        for (Constraint c : Constraint.values()) {
            known.add(constraintName(c));
        }
        throw f.error(path, "must be one of " + String.join(", ", known) + ", got " + JsonFields.describe(n));
    }

    private static NodeDeviation deviation(JsonFields f, ObjectNode parent, String path, String field) {
        ObjectNode o = f.object(parent, path, field);
        String p = JsonFields.at(path, field);
        return new NodeDeviation(f.id(o, p, "node"), f.optionalNumber(o, p, "before", Double.NaN),
                f.optionalNumber(o, p, "after", Double.NaN));
    }

    private static Balance readBalance(JsonFields f, ObjectNode o, String path) {
        double cpu = f.nonNegative(o, path, "cpuMaxOverMean");
        double disk = f.nonNegative(o, path, "diskMaxOverMean");
        double delta = f.optionalNumber(o, path, "imbalanceDegree", Math.max(cpu, disk) - 1);
        return new Balance(cpu, disk, delta);
    }

    private static PlanStatus readStatus(JsonFields f, ObjectNode root, boolean empty) {
        if (!f.has(root, "status")) {
            return empty ? PlanStatus.BALANCED : PlanStatus.PLANNED;
        }
        String s = f.string(root, "", "status");
        for (PlanStatus st : PlanStatus.values()) {
            if (st.name().equalsIgnoreCase(s)) {
                return st;
            }
        }
        throw f.error("status", "must be one of planned, balanced, stuck, suspended, got \"" + s + "\"");
    }
}
