package io.libra.cassandra.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.cassandra.collect.KeyspaceReplication;
import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.collect.WindowReport;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.Job;
import io.libra.core.estimate.LoadModel;
import io.libra.core.estimate.RegionLoad;
import io.libra.core.format.PlanCodec;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Balance;
import io.libra.core.plan.Plan;
import io.libra.core.plan.PlanStatus;
import io.libra.core.ring.AddNodeAdvisor;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.RingPlan;
import io.libra.core.ring.RingTopology;
import io.libra.core.ring.Tokens;
import io.libra.core.ring.VnodeAdvisor;
import io.libra.core.ring.VnodeRing;
import java.util.List;
import java.util.Map;

/** The JSON the API answers with, rendered from one {@link DaemonView}. */
public final class Views {
    /** The sampled partitions /status lists, hottest first. */
    private static final int HOT_PARTITIONS = 10;

    private Views() {
    }

    /** Up while the measuring loop runs (or before it started): what a service manager polls. */
    static ObjectNode health(DaemonView v) {
        ObjectNode o = Json.object();
        o.put("status", v.loopAlive() ? "up" : "down");
        o.put("windows", v.windows());
        if (v.firstWindowAt() != null && v.windows() == 0) {
            o.put("firstWindowAt", v.firstWindowAt().toString());
        }
        Window w = v.window();
        if (w != null) {
            o.put("windowEnd", w.end().toString());
            o.put("nodesAnswering", w.nodes().stream().filter(Window.NodeStat::up).count());
        } else {
            o.put("nodesAnswering", v.nodesAtStart());
        }
        o.put("nodes", v.config().instances.size());
        o.put("jobRunning", v.job() != null && !v.job().finished());
        if (!v.loopAlive()) {
            o.put("problem", "the measuring loop stopped: see the log");
        }
        return o;
    }

    static ObjectNode status(DaemonView v) {
        ObjectNode o = Json.object();
        o.put("cluster", v.config().clusterName);
        o.put("startedAt", v.startedAt().toString());
        o.put("windows", v.windows());
        o.put("dryRun", v.config().execution.dryRun);
        o.put("paused", v.paused());
        ObjectNode lease = o.putObject("lease");
        lease.put("enabled", v.config().lease.enabled);
        lease.put("owner", v.config().lease.owner);
        lease.put("row", v.config().lease.keyspace + ".lease, ring = " + v.config().clusterName);
        o.put("plannable", v.problem() == null);
        o.put("observeOnly", v.observeOnly());
        if (v.problem() != null) {
            o.put("problem", v.problem());
        }
        nodes(o.putArray("nodes"), v);
        Window w = v.window();
        if (w != null) {
            ArrayNode ts = o.putArray("tables");
            for (Window.TableStat t : w.tables()) {
                ObjectNode x = ts.addObject();
                x.put("table", t.keyspace() + "." + t.table());
                x.put("replicationFactor", t.replicationFactor());
                x.put("node", t.node());
                x.put("readOps", t.readOps());
                x.put("writeOps", t.writeOps());
                x.put("bytes", t.liveBytes());
            }
            ArrayNode ks = o.putArray("keyspaces");
            for (KeyspaceReplication k : w.keyspaces()) {
                ObjectNode x = ks.addObject();
                x.put("keyspace", k.keyspace());
                x.put("strategy", k.strategy());
                k.options().forEach(x.putObject("replication")::put);
            }
            o.put("windowEnd", w.end().toString());
            o.put("windowSeconds", w.seconds());
            nodeBalance(o.putObject("nodeBalance"), w);
            tableSkew(o.putArray("tableSkew"), w);
            hotPartitions(o.putArray("hotPartitions"), w);
            o.put("sampledOps", w.sampledOps());
            o.put("requestOps", w.requestOps());
        }
        if (v.estimate() != null) {
            estimation(o.putObject("estimation"), v.estimate());
        }
        if (v.memory() != null) {
            ObjectNode m = o.putObject("planningHistory");
            m.put("windows", v.memory().windows());
            m.put("forecastToCheck", v.memory().forecastToCheck());
            if (v.memory().restored() != null) {
                m.put("restored", v.memory().restored());
            }
        }
        if (v.job() != null) {
            o.set("job", Json.MAPPER.valueToTree(v.job()));
            o.set("pendingCleanup", Json.MAPPER.valueToTree(v.job().pendingCleanup));
        }
        ArrayNode alerts = o.putArray("alerts");
        for (Alert a : alerts(v)) {
            ObjectNode x = alerts.addObject();
            x.put("node", a.node());
            x.put("problem", a.problem());
            x.put("remedy", a.remedy());
        }
        return o;
    }

    /**
     * How the last plan estimated load: the model and windows used, its held-out fit error, the
     * last executed plan's forecast against the window that followed (once one was checked), how far
     * the workload itself moved since the window before (region request counters), whether that
     * explains the miss, and whether the miss made the ring search conservative. Unknown numbers are
     * left out, never NaN.
     */
    private static void estimation(ObjectNode o, DaemonView.Estimate e) {
        o.put("model", e.how().model());
        o.put("windows", e.how().windows());
        o.put("historyKept", e.kept());
        finite(o, "fitError", e.how().fitError());
        o.put("forecastChecked", Double.isFinite(e.how().lastPredictionError()));
        finite(o, "lastPredictionError", e.how().lastPredictionError());
        o.put("conservative", e.conservative());
        finite(o, "workloadShift", e.workloadShift());
        o.put("missExplainedByWorkload", e.missExplainedByWorkload());
        if (e.how().detail() != null) {
            o.put("detail", e.how().detail());
        }
        if (e.dropped() != null) {
            o.put("memoryDropped", e.dropped());
        }
    }

    private static void finite(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        }
    }

    /** Something on the ring the operator must act on, and what to do. */
    public record Alert(String node, String problem, String remedy) {
    }

    /**
     * Nodes left MOVING: by the current job's failed move, or seen MOVING in the last window while
     * no job runs (a move someone else started, or one the sidecar lost track of).
     */
    public static java.util.List<Alert> alerts(DaemonView v) {
        java.util.List<Alert> out = new java.util.ArrayList<>();
        Job job = v.job();
        if (job != null && job.leftMoving != null) {
            out.add(new Alert(job.leftMoving, "left MOVING by job " + job.id + ": " + job.detail, job.remedy));
        }
        boolean running = job != null && !job.finished();
        if (v.window() != null && !running) {
            for (Window.NodeStat n : v.window().nodes()) {
                if ("MOVING".equals(n.mode()) && out.stream().noneMatch(a -> a.node().equals(n.id()))) {
                    out.add(new Alert(n.id(), "MOVING while no rebalance job runs",
                            "if no operator is moving it, its move failed: run `nodetool move` on " + n.id()
                                    + " again, or restart Cassandra on it to return it NORMAL at its old token, "
                                    + "then run `nodetool cleanup` on the nodes that lost ranges"));
                }
            }
        }
        return out;
    }

    /** The current job and the history, newest first, one line each. */
    static ObjectNode jobs(java.util.List<Job> jobs) {
        ObjectNode o = Json.object();
        ArrayNode a = o.putArray("jobs");
        for (Job j : jobs) {
            ObjectNode x = a.addObject();
            x.put("jobId", j.id);
            x.put("planId", j.planId);
            x.put("createdAt", j.createdAt);
            x.put("state", j.state.name());
            x.put("dryRun", j.dryRun);
            x.put("moves", j.moves.size());
            x.put("cleanupsPending", j.cleanupsPending());
            x.put("detail", j.detail);
        }
        return o;
    }

    /** Max/Mean of the nodes' own CPU and disk over the window (nodes that answered): no model needed. */
    /**
     * Max/Mean of the nodes that are up; with several data centres also each one's own, which is
     * what the planner balances (a data centre's share of the load is fixed by its replication).
     */
    private static void nodeBalance(ObjectNode o, Window w) {
        java.util.List<Window.NodeStat> up = w.nodes().stream().filter(Window.NodeStat::up).toList();
        balance(o, up);
        java.util.Map<String, java.util.List<Window.NodeStat>> byDc = new java.util.TreeMap<>();
        up.stream().filter(n -> n.datacenter() != null).forEach(n -> byDc.computeIfAbsent(n.datacenter(),
                k -> new java.util.ArrayList<>()).add(n));
        if (byDc.size() > 1) {
            ObjectNode dcs = o.putObject("byDatacenter");
            byDc.forEach((dc, nodes) -> balance(dcs.putObject(dc), nodes));
        }
    }

    private static void tableSkew(ArrayNode a, Window w) {
        for (WindowReport.TableSkew t : WindowReport.tableSkew(w)) {
            ObjectNode x = a.addObject();
            x.put("table", t.table());
            x.put("nodes", t.nodes());
            x.put("opsMaxOverMean", t.opsMaxOverMean());
            x.put("bytesMaxOverMean", t.bytesMaxOverMean());
            x.put("hottestNode", t.hottestNode());
        }
    }

    private static void hotPartitions(ArrayNode a, Window w) {
        for (WindowReport.HotPartition h : WindowReport.hotPartitions(w, HOT_PARTITIONS)) {
            ObjectNode x = a.addObject();
            x.put("table", h.table());
            x.put("token", Long.toString(h.token()));
            x.put("reads", h.reads());
            x.put("writes", h.writes());
            x.put("writeBytes", h.writeBytes());
            h.replicas().forEach(x.putArray("replicas")::add);
        }
    }

    private static void balance(ObjectNode o, java.util.List<Window.NodeStat> nodes) {
        o.put("nodes", nodes.size());
        o.put("cpuMaxOverMean", WindowReport.maxOverMean(nodes.stream().mapToDouble(Window.NodeStat::cpuUsage).toArray()));
        o.put("diskMaxOverMean", WindowReport.maxOverMean(nodes.stream().mapToDouble(Window.NodeStat::diskBytesPerSec).toArray()));
    }

    private static void nodes(ArrayNode ns, DaemonView v) {
        for (SidecarConfig.Instance in : v.config().instances) {
            ObjectNode n = ns.addObject();
            n.put("id", in.id);
            n.put("host", in.host);
            n.put("jmxPort", in.jmxPort);
            Window.NodeStat st = v.window() == null ? null
                    : v.window().nodes().stream().filter(x -> x.id().equals(in.id)).findFirst().orElse(null);
            if (st == null) {
                continue;
            }
            n.put("up", st.up());
            n.put("mode", st.mode());
            if (st.datacenter() != null) {
                n.put("datacenter", st.datacenter());
                n.put("rack", st.rack());
            }
            if (st.token() != null) {
                n.put("token", Tokens.toKey(st.token()));
                n.put("tokenDecimal", Long.toString(st.token()));
            } else if (!st.tokens().isEmpty()) {
                n.put("tokens", st.tokens().size());
            }
            n.put("diskSource", st.diskSource());
            n.put("cpuCores", st.cpuUsage());
            n.put("diskBytesPerSec", st.diskBytesPerSec());
            if (st.error() != null) {
                n.put("error", st.error());
            }
        }
    }

    static ObjectNode load(DaemonView v) {
        ObjectNode o = Json.object();
        if (v.model() == null) {
            o.put("available", false);
            o.put("problem", v.problem());
            return o;
        }
        o.put("available", true);
        LoadModel m = v.model().load();
        ArrayNode ns = o.putArray("nodes");
        for (int j = 0; j < m.nodeCount(); j++) {
            ObjectNode n = ns.addObject();
            n.put("id", m.nodes().get(j).id());
            n.put("cpu", m.load(j, Dimension.CPU));
            n.put("disk", m.load(j, Dimension.DISK));
            n.put("normalizedCpu", m.normalized(j, Dimension.CPU));
            n.put("normalizedDisk", m.normalized(j, Dimension.DISK));
        }
        balance(o.putObject("balance"), m.balance());
        ArrayNode rs = o.putArray("subRanges");
        for (RingModel.SubRange sr : v.model().subRanges()) {
            ObjectNode r = rs.addObject();
            r.put("id", sr.id());
            r.put("start", Tokens.toKey(sr.start()));
            r.put("end", Tokens.toKey(sr.end()));
            ArrayNode replicas = r.putArray("replicas");
            for (RegionLoad rl : m.regions()) {
                if (sr.id().equals(rl.region().rangeId())) {
                    ObjectNode x = replicas.addObject();
                    x.put("table", rl.region().table());
                    x.put("node", rl.node());
                    x.put("readOps", rl.region().counters().readOps());
                    x.put("writeOps", rl.region().counters().writeOps());
                    x.put("cpu", rl.cpu());
                    x.put("disk", rl.disk());
                }
            }
        }
        return o;
    }

    /**
     * The current plan as {@code libra.plan/v1}, written by core's PlanCodec (so {@code libra
     * explain} reads it with the snapshot from {@code /api/v1/snapshot}, whose SHA-256 it names),
     * plus the {@code planId} a rebalance must
     * name. Without a plan: no actions, status {@code suspended} and the reason in {@code detail}.
     */
    static ObjectNode plan(DaemonView v) {
        Plan p = v.plan() != null ? v.plan()
                : Plan.empty(RingPlan.STRATEGY_PREFIX + "none", null, PlanStatus.SUSPENDED, v.problem());
        ObjectNode o = PlanCodec.toTree(p, v.plan() != null ? v.snapshotSha256() : "");
        if (v.planId() != null) {
            o.put("planId", v.planId());
        } else {
            o.putNull("planId");
        }
        return o;
    }

    /**
     * The add-node advice on the current ring model: each new node's initial_token and the
     * cassandra.yaml lines for it, the predicted balance once they have joined, and the same for
     * the ownership baseline (the widest arc split in the middle, as token allocation by
     * ownership would), so the two can be compared.
     */
    public static ObjectNode addNode(RingLoad ring, int slicesPerSubrange, int count) {
        return addNode(ring, slicesPerSubrange, count, null);
    }

    /** As {@link #addNode(RingLoad, int, int)}, the new nodes in {@code place} (null: the ring places no replica by it). */
    public static ObjectNode addNode(RingLoad ring, int slicesPerSubrange, int count, RingTopology.Place place) {
        AddNodeAdvisor.Advice a = new AddNodeAdvisor(slicesPerSubrange).advise(ring, count, place);
        ObjectNode o = Json.object();
        o.put("count", count);
        ArrayNode nodes = o.putArray("nodes");
        for (AddNodeAdvisor.NewNode n : a.nodes()) {
            ObjectNode x = nodes.addObject();
            x.put("id", n.id());
            x.put("initialToken", Long.toString(n.token()));
            x.put("token", n.tokenKey());
            ArrayNode yaml = x.putArray("cassandraYaml");
            yaml.add("num_tokens: 1");
            yaml.add("initial_token: " + n.token());
        }
        balance(o.putObject("before"), a.before());
        balance(o.putObject("predicted"), a.after());
        ObjectNode base = o.putObject("ownershipSplit");
        ArrayNode bt = base.putArray("initialTokens");
        a.split().forEach(n -> bt.add(Long.toString(n.token())));
        balance(base.putObject("predicted"), a.splitAfter());
        base.put("method", "the widest arc split in the middle, load ignored");
        o.put("note", "predicted by the ring model of the window (per-node Max/Mean of CPU and disk); bootstrap "
                + "the nodes one at a time, in this order, with auto_bootstrap: true");
        return o;
    }

    /**
     * As {@link #addNode(RingLoad, int, int, RingTopology.Place)}, and, when {@code evaluate} holds a
     * token, the balance one node joining there would give by the same model ({@code evaluated}).
     */
    public static ObjectNode addNode(RingLoad ring, int slicesPerSubrange, int count, RingTopology.Place place,
                                     List<Long> evaluate) {
        ObjectNode o = addNode(ring, slicesPerSubrange, count, place);
        if (!evaluate.isEmpty()) {
            if (evaluate.size() > 1) {
                throw new IllegalArgumentException("tokens: a node of a single-token ring takes one, got " + evaluate.size());
            }
            evaluated(o, evaluate, new AddNodeAdvisor(slicesPerSubrange).evaluate(ring, evaluate.get(0), place));
        }
        return o;
    }

    /** As {@link #addVnodes(VnodeRing, int, int, RingTopology.Place)}, with {@code evaluated} for the tokens given. */
    public static ObjectNode addVnodes(VnodeRing ring, int slicesPerSubrange, int count, RingTopology.Place place,
                                       List<Long> evaluate) {
        ObjectNode o = addVnodes(ring, slicesPerSubrange, count, place);
        if (!evaluate.isEmpty()) {
            evaluated(o, evaluate, new VnodeAdvisor(slicesPerSubrange).evaluate(ring, evaluate, place));
        }
        return o;
    }

    private static void evaluated(ObjectNode advice, List<Long> tokens, Balance b) {
        ObjectNode e = advice.putObject("evaluated");
        e.put("initialToken", decimals(tokens.stream().sorted().toList()));
        balance(e.putObject("predicted"), b);
    }

    /**
     * Tokens to evaluate, as an operator writes them ({@code initial_token}: signed decimals,
     * comma-separated); empty for an empty text.
     */
    public static List<Long> tokens(String text) {
        List<Long> out = new java.util.ArrayList<>();
        for (String t : text.split(",")) {
            if (t.isBlank()) {
                continue;
            }
            try {
                out.add(Long.parseLong(t.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("tokens: \"" + t.strip() + "\" is not a token (a signed 64-bit decimal)");
            }
        }
        return out;
    }

    /**
     * The add-node advice on a vnode ring: each new node's {@code num_tokens} tokens and the
     * cassandra.yaml lines for them, with the prediction and the ownership baseline as for a
     * single-token ring.
     */
    public static ObjectNode addVnodes(VnodeRing ring, int slicesPerSegment, int count, RingTopology.Place place) {
        int numTokens = ring.numTokens();
        VnodeAdvisor.Advice a = new VnodeAdvisor(slicesPerSegment).advise(ring, count, numTokens, place);
        ObjectNode o = Json.object();
        o.put("count", count);
        o.put("numTokens", numTokens);
        ArrayNode nodes = o.putArray("nodes");
        for (VnodeAdvisor.NewNode n : a.nodes()) {
            ObjectNode x = nodes.addObject();
            x.put("id", n.id());
            x.put("initialToken", decimals(n.tokens()));
            ArrayNode keys = x.putArray("tokens");
            n.tokens().forEach(t -> keys.add(Tokens.toKey(t)));
            ArrayNode yaml = x.putArray("cassandraYaml");
            yaml.add("num_tokens: " + numTokens);
            yaml.add(n.initialToken());
        }
        balance(o.putObject("before"), a.before());
        balance(o.putObject("predicted"), a.after());
        ObjectNode base = o.putObject("ownershipSplit");
        ArrayNode bt = base.putArray("initialTokens");
        a.split().forEach(n -> bt.add(decimals(n.tokens())));
        balance(base.putObject("predicted"), a.splitAfter());
        base.put("method", "Libra's token-by-token balance of replicated ownership, load ignored; not Cassandra's"
                + " allocator (both are compared on real rings in docs/cassandra.md)");
        o.put("note", "predicted by the ring model of the window (per-node Max/Mean of CPU and disk); each new node "
                + "takes the ring's num_tokens; bootstrap the nodes one at a time, in this order, with auto_bootstrap: true");
        return o;
    }

    private static String decimals(List<Long> tokens) {
        return tokens.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
    }

    /** The one data centre and rack every node is in, or null when there is none or several. */
    public static RingTopology.Place onlyPlace(Map<String, RingTopology.Place> places) {
        java.util.Set<RingTopology.Place> distinct = new java.util.HashSet<>(places.values());
        return distinct.size() == 1 ? distinct.iterator().next() : null;
    }

    static void balance(ObjectNode o, Balance b) {
        o.put("cpuMaxOverMean", b.cpuMaxOverMean());
        o.put("diskMaxOverMean", b.diskMaxOverMean());
        o.put("imbalanceDegree", b.imbalanceDegree());
    }
}
