package io.libra.core.ring;

import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.plan.MoveTokenAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies a plan's {@code moveToken} actions to a ring in memory, checking each against the
 * ring it meets (the node exists, holds {@code fromToken}, and {@code toToken} is free and
 * keeps the nodes' order), so a plan made for another ring is refused whole. A new token
 * inside a segment splits it, its load shared by token width as the planner assumes.
 */
public final class RingApplier {
    private RingApplier() {
    }

    /** The ring before and after, with each node's load in both. */
    public record Applied(RingLoad before, RingLoad after) {
        public List<RingNodeLoad> loadsBefore() {
            return RingPlanner.loads(before);
        }

        public List<RingNodeLoad> loadsAfter() {
            return RingPlanner.loads(after);
        }

        public Balance balanceBefore() {
            return balance(before);
        }

        public Balance balanceAfter() {
            return balance(after);
        }

        private static Balance balance(RingLoad ring) {
            RingGrid g = new RingGrid(ring, 1);
            return g.balance(g.initial);
        }
    }

    /**
     * @throws InvalidPlanException naming {@code actions[i].<field>} for the first action that does not fit
     */
    public static Applied apply(RingLoad ring, List<? extends Action> actions) {
        RingLoad now = ring;
        for (int i = 0; i < actions.size(); i++) {
            String at = "actions[" + i + "]";
            if (!(actions.get(i) instanceof MoveTokenAction m)) {
                throw new InvalidPlanException(at + ".type", "a ring plan holds moveToken actions only, got "
                        + actions.get(i).type());
            }
            now = move(now, m, at);
        }
        return new Applied(ring, now);
    }

    private static RingLoad move(RingLoad ring, MoveTokenAction m, String at) {
        Map<String, RingNode> byId = new HashMap<>();
        ring.nodes().forEach(n -> byId.put(n.id(), n));
        RingNode node = byId.get(m.node());
        if (node == null) {
            throw new InvalidPlanException(at + ".node", "unknown node " + m.node());
        }
        long from = token(m.fromToken(), at + ".fromToken");
        long to = token(m.toToken(), at + ".toToken");
        if (node.token() != from) {
            throw new InvalidPlanException(at + ".fromToken", "node " + m.node() + " holds " + node.tokenKey() + ", not "
                    + m.fromToken());
        }
        List<RingNode> nodes = new ArrayList<>(ring.nodes());
        int j = nodes.indexOf(node);
        int n = nodes.size();
        if (n > 1 && !between(nodes.get((j - 1 + n) % n).token(), to, nodes.get((j + 1) % n).token())) {
            throw new InvalidPlanException(at + ".toToken", m.toToken() + " is not strictly between " + m.node()
                    + "'s neighbours on the ring: a token move keeps the nodes' order");
        }
        nodes.set(j, new RingNode(node.id(), to, node.baseCpu(), node.baseDisk(), node.cpuCapacity(), node.diskCapacity()));
        return new RingLoad(nodes, splitAt(ring.segments(), to), ring.places());
    }

    private static long token(String key, String at) {
        try {
            return Tokens.fromKey(key);
        } catch (IllegalArgumentException e) {
            throw new InvalidPlanException(at, e.getMessage());
        }
    }

    /** True when t lies on the open clockwise arc (a, b). */
    private static boolean between(long a, long t, long b) {
        long span = Tokens.clockwise(a, b);
        long off = Tokens.clockwise(a, t);
        return off != 0 && (span == 0 || Long.compareUnsigned(off, span) < 0);
    }

    /** The segments with one ending at t: the segment holding t is cut in two by token width. */
    static List<RingSegment> splitAt(List<RingSegment> segments, long t) {
        TreeMap<Long, RingSegment> byEnd = new TreeMap<>();
        segments.forEach(s -> byEnd.put(s.endToken(), s));
        if (byEnd.containsKey(t)) {
            return segments;
        }
        Map.Entry<Long, RingSegment> holder = byEnd.ceilingEntry(t);
        if (holder == null) {
            holder = byEnd.firstEntry();
        }
        Map.Entry<Long, RingSegment> prev = byEnd.lowerEntry(holder.getKey());
        long start = (prev == null ? byEnd.lastEntry() : prev).getKey();
        double span = Tokens.width(Tokens.clockwise(start, holder.getKey()));
        double first = Tokens.width(Tokens.clockwise(start, t)) / span;
        RingSegment s = holder.getValue();
        byEnd.put(t, new RingSegment(t, scaled(s.loads(), first)));
        byEnd.put(s.endToken(), new RingSegment(s.endToken(), scaled(s.loads(), 1 - first)));
        return new ArrayList<>(byEnd.values());
    }

    private static List<ReplicaLoad> scaled(List<ReplicaLoad> loads, double f) {
        List<ReplicaLoad> out = new ArrayList<>(loads.size());
        loads.forEach(l -> out.add(l.scaled(f)));
        return out;
    }
}
