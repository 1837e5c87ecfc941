package io.libra.core.ring;

import io.libra.core.plan.Balance;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tokens for nodes about to join a single-token ring ({@code initial_token}), chosen where they
 * relieve the ring most in CPU and disk at once: each new node, in turn, takes the candidate token
 * (a slice boundary, {@code slicesPerSegment} per segment) after which Δ (eq. 4) is lowest, replica
 * placement included (a new node also shifts the replica sets of its RF-1 successors). The baseline
 * is what ownership-based allocation does: split the widest arc in the middle. Both are predicted
 * with the same model, in which a joining node carries the load of the range it takes and nothing
 * else: the total stays what the ring carries now, so the relief is not flattered by a new node's
 * imagined own work raising the mean.
 */
public final class AddNodeAdvisor {
    /** Joining nodes one piece of advice covers at most (each is a search over every boundary). */
    public static final int MAX_COUNT = 16;
    private final int slicesPerSegment;

    public AddNodeAdvisor(int slicesPerSegment) {
        this.slicesPerSegment = slicesPerSegment;
    }

    /** A token for one new node. */
    public record NewNode(String id, long token) {
        public String tokenKey() {
            return Tokens.toKey(token);
        }
    }

    /**
     * @param nodes       the advised nodes, in the order to bootstrap them
     * @param after       the ring's balance once they have joined, by the model
     * @param split       the baseline's tokens (the widest arc split in the middle, per node)
     * @param splitAfter  the balance the baseline would give
     */
    public record Advice(List<NewNode> nodes, Balance before, Balance after, List<NewNode> split, Balance splitAfter) {
    }

    public Advice advise(RingLoad ring, int count) {
        return advise(ring, count, null);
    }

    /**
     * @param place where the new nodes will be (data centre and rack), needed on a ring whose
     *              loads are placed by NetworkTopologyStrategy; null otherwise
     */
    public Advice advise(RingLoad ring, int count, RingTopology.Place place) {
        check(count, ring.placed(), place);
        Balance before = balance(ring);
        RingLoad libra = ring;
        RingLoad split = ring;
        List<NewNode> chosen = new ArrayList<>();
        List<NewNode> halves = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            String id = "new-" + k;
            NewNode best = best(libra, id, place);
            chosen.add(best);
            libra = with(libra, best, place);
            NewNode half = widestHalf(split, id);
            halves.add(half);
            split = with(split, half, place);
        }
        return new Advice(chosen, before, balance(libra), halves, balance(split));
    }

    /**
     * The ring's balance once one node has joined at {@code token}, by the model the advice is
     * predicted with: to weigh any token against the advice (an operator's own, or the one a node
     * started with {@code allocate_tokens_for_local_replication_factor} took).
     */
    public Balance evaluate(RingLoad ring, long token, RingTopology.Place place) {
        return evaluateJoining(ring, List.of(token), place);
    }

    /** As {@link #evaluate(RingLoad, long, RingTopology.Place)} for several nodes, one per token, joining in this order. */
    public Balance evaluateJoining(RingLoad ring, List<Long> tokens, RingTopology.Place place) {
        check(tokens.size(), ring.placed(), place);
        RingLoad after = ring;
        for (int k = 0; k < tokens.size(); k++) {
            long token = tokens.get(k);
            after.nodes().stream().filter(n -> n.token() == token).findFirst().ifPresent(n -> {
                throw new IllegalArgumentException("tokens: " + token + " is already " + n.id() + "'s token");
            });
            after = with(after, new NewNode("evaluated-" + (k + 1), token), place);
        }
        return balance(after);
    }

    /** The count in range, and a place for the new nodes where some load is placed by data centre and rack. */
    static void check(int count, boolean placed, RingTopology.Place place) {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count: must be from 1 to " + MAX_COUNT + ", got " + count);
        }
        if (place == null && placed) {
            throw new IllegalArgumentException("place: the ring's replicas are placed by data centre and rack, so the "
                    + "new nodes' data centre and rack must be given");
        }
    }

    /** The candidate boundary after which Δ is lowest (then the spread of deviations). */
    private NewNode best(RingLoad ring, String id, RingTopology.Place place) {
        NewNode best = null;
        double bestDelta = Double.POSITIVE_INFINITY;
        double bestSpread = Double.POSITIVE_INFINITY;
        for (long t : candidates(ring)) {
            RingGrid g = new RingGrid(with(ring, new NewNode(id, t), place), slicesPerSegment);
            double d = g.imbalance(g.initial);
            double s = g.spread(g.initial);
            if (d < bestDelta - 1e-12 || d <= bestDelta + 1e-12 && s < bestSpread) {
                best = new NewNode(id, t);
                bestDelta = d;
                bestSpread = s;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("the ring has no segment boundary free for a new node's token");
        }
        return best;
    }

    /** Slice boundaries no node holds. */
    private List<Long> candidates(RingLoad ring) {
        Set<Long> taken = new HashSet<>();
        ring.nodes().forEach(n -> taken.add(n.token()));
        List<Long> out = new ArrayList<>();
        for (long end : new Slices(ring.segments(), slicesPerSegment).end) {
            if (!taken.contains(end)) {
                out.add(end);
            }
        }
        return out;
    }

    /** The free boundary nearest the middle of the widest primary arc. */
    private NewNode widestHalf(RingLoad ring, String id) {
        List<Long> tokens = ring.nodes().stream().map(RingNode::token).toList();
        List<Long> ends = java.util.Arrays.stream(new Slices(ring.segments(), slicesPerSegment).end).boxed().toList();
        return new NewNode(id, widestHalf(tokens, ends));
    }

    /** Of the candidate tokens none of {@code tokens} holds, the one nearest the middle of the widest range between them. */
    static long widestHalf(List<Long> tokens, List<Long> candidates) {
        List<Long> sorted = tokens.stream().sorted().toList();
        int n = sorted.size();
        long bestMid = 0;
        long bestSpan = -1;
        for (int j = 0; j < n; j++) {
            long from = sorted.get((j - 1 + n) % n);
            long span = Tokens.clockwise(from, sorted.get(j));
            if (n == 1 || Long.compareUnsigned(span, bestSpan) > 0) {
                bestSpan = span;
                bestMid = Tokens.advance(from, span, 0.5);
            }
        }
        long mid = bestMid;
        Set<Long> taken = new HashSet<>(tokens);
        return candidates.stream().filter(t -> !taken.contains(t))
                .min((a, b) -> Long.compareUnsigned(distance(a, mid), distance(b, mid)))
                .orElseThrow(() -> new IllegalArgumentException("the ring has no segment boundary free for a new node's token"));
    }

    private static long distance(long a, long b) {
        long d = Tokens.clockwise(a, b);
        long e = Tokens.clockwise(b, a);
        return Long.compareUnsigned(d, e) < 0 ? d : e;
    }

    /**
     * The ring once a node has joined at {@code add}: the segment holding its token is cut there by
     * token width, and the node carries no base load, since the measured base of the others is their
     * own process's work and moves nowhere.
     */
    static RingLoad with(RingLoad ring, NewNode add, RingTopology.Place place) {
        List<RingNode> nodes = new ArrayList<>(ring.nodes());
        nodes.add(new RingNode(add.id(), add.token()));
        java.util.Map<String, RingTopology.Place> places = new java.util.HashMap<>(ring.places());
        if (place != null) {
            places.put(add.id(), place);
        }
        return new RingLoad(nodes, RingApplier.splitAt(ring.segments(), add.token()), places);
    }

    private Balance balance(RingLoad ring) {
        RingGrid g = new RingGrid(ring, slicesPerSegment);
        return g.balance(g.initial);
    }
}
