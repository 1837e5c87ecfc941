package io.libra.core.ring;

import io.libra.core.plan.Balance;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Tokens for nodes about to join a vnode ring ({@code initial_token} with {@code num_tokens}
 * of them): each new node takes its tokens one at a time, each at the slice boundary after which
 * Δ (eq. 4) is lowest (then the spread of deviations), replica placement included, so its tokens
 * land in the hottest ranges, where taking the range relieves most in CPU and disk at once; then
 * each is put back where it does most once the others are placed. The same put-back search also
 * runs from tokens spread evenly round the ring, and the best of all is advised. The
 * baseline is allocation by ownership: the same search with every range's load its token width
 * (what {@code allocate_tokens_for_local_replication_factor} balances, not its algorithm). Both
 * are predicted with the same model, in which a joining node carries the load of the ranges it
 * takes and nothing else (as {@link AddNodeAdvisor} does for single tokens).
 */
public final class VnodeAdvisor {
    /** Tokens one new node may take at most ({@code num_tokens}). */
    public static final int MAX_TOKENS = 256;
    /** Rounds of taking each new token out and putting it back where it does most. */
    static final int REFINE_PASSES = 8;
    /** Spread starts of the local search beside the greedy one (fewer on large rings, see {@link #SPREAD_BUDGET}). */
    static final int SPREAD_STARTS = 8;
    /** Tokens × slices summed over the spread starts: fewer starts on large rings, whose search stays near its greedy time. */
    static final long SPREAD_BUDGET = 200_000;
    private final int slicesPerSegment;

    public VnodeAdvisor(int slicesPerSegment) {
        this.slicesPerSegment = slicesPerSegment;
    }

    /** The tokens for one new node. */
    public record NewNode(String id, List<Long> tokens) {
        public NewNode {
            tokens = tokens.stream().sorted().toList();
        }

        /** The {@code cassandra.yaml} line: signed decimal tokens, comma-separated. */
        public String initialToken() {
            return "initial_token: " + tokens.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
    }

    /**
     * @param after      the ring's balance once the advised nodes have joined, by the model
     * @param split      the baseline's tokens (balancing replicated ownership, token by token)
     * @param splitAfter the balance the baseline would give
     */
    public record Advice(List<NewNode> nodes, Balance before, Balance after, List<NewNode> split, Balance splitAfter) {
    }

    /**
     * @param place where the new nodes will be, needed when some load is placed by
     *              NetworkTopologyStrategy; null otherwise
     */
    public Advice advise(VnodeRing ring, int count, int numTokens, RingTopology.Place place) {
        AddNodeAdvisor.check(count, RingLoad.placed(ring.segments()), place);
        if (numTokens < 1 || numTokens > MAX_TOKENS) {
            throw new IllegalArgumentException("num_tokens: must be from 1 to " + MAX_TOKENS + ", got " + numTokens);
        }
        VnodeRing libra = ring;
        VnodeRing split = ring;
        List<NewNode> chosen = new ArrayList<>();
        List<NewNode> halves = new ArrayList<>();
        for (int k = 1; k <= count; k++) {
            String id = "new-" + k;
            NewNode best = best(libra, id, numTokens, place);
            chosen.add(best);
            libra = libra.with(new VnodeRing.Member(id, best.tokens(), 0, 0), place);
            NewNode half = best(byOwnership(split), id, numTokens, place);
            halves.add(half);
            split = split.with(new VnodeRing.Member(id, half.tokens(), 0, 0), place);
        }
        return new Advice(chosen, balance(ring), balance(libra), halves, balance(split));
    }

    /**
     * The ring's balance once one node with {@code tokens} has joined, by the model the advice is
     * predicted with: to weigh any tokens against the advice (an operator's own, or those of
     * Cassandra's allocator, {@code allocate_tokens_for_local_replication_factor}).
     */
    public Balance evaluate(VnodeRing ring, List<Long> tokens, RingTopology.Place place) {
        return evaluateJoining(ring, List.of(tokens), place);
    }

    /** As {@link #evaluate(VnodeRing, List, RingTopology.Place)} for several nodes joining in this order. */
    public Balance evaluateJoining(VnodeRing ring, List<List<Long>> nodes, RingTopology.Place place) {
        AddNodeAdvisor.check(nodes.size(), RingLoad.placed(ring.segments()), place);
        VnodeRing after = ring;
        for (int k = 0; k < nodes.size(); k++) {
            List<Long> tokens = nodes.get(k);
            if (tokens.isEmpty() || tokens.size() > MAX_TOKENS) {
                throw new IllegalArgumentException("tokens: from 1 to " + MAX_TOKENS + " are needed, got " + tokens.size());
            }
            if (new java.util.HashSet<>(tokens).size() < tokens.size()) {
                throw new IllegalArgumentException("tokens: each may be given once");
            }
            for (VnodeRing.Member m : after.members()) {
                for (long t : tokens) {
                    if (m.tokens().contains(t)) {
                        throw new IllegalArgumentException("tokens: " + t + " is already " + m.id() + "'s token");
                    }
                }
            }
            after = after.with(new VnodeRing.Member("evaluated-" + (k + 1), tokens, 0, 0), place);
        }
        return balance(after);
    }

    /**
     * The best of several local searches on the advice's model: one from the token by token
     * greedy placement, the others from the tokens spread evenly round the ring, each start
     * turned a further {@code 1/SPREAD_STARTS} of the spacing. Greedy alone settles where no one
     * token can move for the better but several together could (on 17 of 60 random 3-node rings,
     * tokens dealt at random did better by up to 0.10 in Δ); a spread start often does not.
     */
    private NewNode best(VnodeRing ring, String id, int numTokens, RingTopology.Place place) {
        VnodeLoads model = new VnodeLoads(ring, slicesPerSegment, id, place);
        int j = model.ids.indexOf(id);
        VnodeLoads.Layout start = model.layout(ring);
        Searched best = refine(model, greedy(model, start, j, numTokens), j);
        for (int k = 0; k < spreadStarts(model, numTokens); k++) {
            VnodeLoads.Layout spread = spread(model, start, j, numTokens, k);
            if (spread != null) {
                Searched s = refine(model, spread, j);
                best = s.now().better(best.now()) ? s : best;
            }
        }
        List<Long> tokens = new ArrayList<>();
        for (int p : best.layout().of(j)) {
            tokens.add(model.slices.end[p]);
        }
        return new NewNode(id, tokens);
    }

    /** Spread starts, as many as fit in {@link #SPREAD_BUDGET} slice evaluations of the greedy's cost. */
    private static int spreadStarts(VnodeLoads model, int numTokens) {
        return (int) Math.min(SPREAD_STARTS, SPREAD_BUDGET / Math.max(1L, (long) numTokens * model.slices.m));
    }

    /** A layout with node j's tokens and the balance it gives. */
    private record Searched(VnodeLoads.Layout layout, Choice now) {
    }

    /** Node j's tokens placed token by token, each at the free slice after which Δ is lowest (then the spread). */
    private static VnodeLoads.Layout greedy(VnodeLoads model, VnodeLoads.Layout layout, int j, int numTokens) {
        for (int k = 0; k < numTokens; k++) {
            layout = layout.plus(bestSlice(model, layout, j).pos(), j);
        }
        return layout;
    }

    /**
     * Node j's tokens at evenly spaced slices, start {@code k} of {@link #SPREAD_STARTS} turned k
     * spacings / SPREAD_STARTS round the ring, each on the next free slice; null when too few are free.
     */
    private static VnodeLoads.Layout spread(VnodeLoads model, VnodeLoads.Layout layout, int j, int numTokens, int k) {
        int m = model.slices.m;
        for (int i = 0; i < numTokens; i++) {
            int p = (int) (((long) i * SPREAD_STARTS + k) * m / ((long) numTokens * SPREAD_STARTS));
            int tries = 0;
            while (java.util.Arrays.binarySearch(layout.pos(), p) >= 0 && tries++ < m) {
                p = (p + 1) % m;
            }
            if (tries >= m) {
                return null;
            }
            layout = layout.plus(p, j);
        }
        return layout;
    }

    /**
     * Each token in turn taken out and put back where it now does most, until none moves (at most
     * {@link #REFINE_PASSES} rounds): a token placed early for a hot range a later token relieved
     * better is not left where it no longer helps.
     */
    private static Searched refine(VnodeLoads model, VnodeLoads.Layout layout, int j) {
        Choice now = score(model, layout);
        boolean moved = layout.of(j).length > 1;
        for (int pass = 0; pass < REFINE_PASSES && moved; pass++) {
            moved = false;
            for (int p : layout.of(j)) {
                VnodeLoads.Layout without = layout.minus(p);
                Choice c = bestSlice(model, without, j);
                if (c.pos() != p && c.better(now)) {
                    layout = without.plus(c.pos(), j);
                    now = c;
                    moved = true;
                }
            }
        }
        return new Searched(layout, now);
    }

    /** A slice for one more token and the balance it gives: Δ, then the spread. */
    private record Choice(int pos, double delta, double spread) {
        /** A strictly better balance, beyond rounding (so among equals the first found stays). */
        boolean better(Choice o) {
            return delta < o.delta - 1e-12 || delta <= o.delta + 1e-12 && spread < o.spread - 1e-12;
        }
    }

    private static Choice score(VnodeLoads model, VnodeLoads.Layout layout) {
        double[][] loads = model.loads(layout);
        return new Choice(-1, model.balance(loads).imbalanceDegree(), model.spread(loads));
    }

    /** The free slice where one more token of node j lowers Δ most (then the spread). */
    private static Choice bestSlice(VnodeLoads model, VnodeLoads.Layout layout, int j) {
        VnodeLoads.Evaluated now = model.evaluate(layout);
        boolean incremental = model.incremental(now, j);
        Choice best = new Choice(-1, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
        for (int p = 0; p < model.slices.m; p++) {
            if (java.util.Arrays.binarySearch(layout.pos(), p) >= 0) {
                continue;
            }
            double[][] loads = model.loadsWith(now, p, j, incremental);
            Choice c = new Choice(p, model.balance(loads).imbalanceDegree(), model.spread(loads));
            if (best.pos() < 0 || c.better(best)) {
                best = c;
            }
        }
        if (best.pos() < 0) {
            throw new IllegalArgumentException("the ring has no segment boundary free for a new node's token");
        }
        return best;
    }

    /**
     * The ring as allocation by ownership sees it: every group's load spread evenly over the
     * tokens (each segment's share its width), no base load. The same search on it balances
     * replicated ownership, as {@code allocate_tokens_for_local_replication_factor} aims to.
     */
    private static VnodeRing byOwnership(VnodeRing ring) {
        List<RingSegment> segs = ring.segments();
        java.util.Set<ReplicaGroup> groups = new java.util.TreeSet<>(ReplicaGroup.ORDER);
        segs.forEach(s -> s.loads().forEach(l -> groups.add(l.group())));
        List<RingSegment> even = new ArrayList<>();
        for (int i = 0; i < segs.size(); i++) {
            long prev = segs.get((i - 1 + segs.size()) % segs.size()).endToken();
            double w = Tokens.width(Tokens.clockwise(prev, segs.get(i).endToken()));
            List<ReplicaLoad> loads = new ArrayList<>();
            groups.forEach(g -> loads.add(new ReplicaLoad(g, w, w, 0)));
            even.add(new RingSegment(segs.get(i).endToken(), loads));
        }
        List<VnodeRing.Member> members = new ArrayList<>();
        ring.members().forEach(m -> members.add(new VnodeRing.Member(m.id(), m.tokens(), 0, 0)));
        return new VnodeRing(members, even, ring.places());
    }

    private Balance balance(VnodeRing ring) {
        VnodeLoads model = new VnodeLoads(ring, slicesPerSegment, null, null);
        return model.balance(model.loads(model.layout(ring)));
    }
}
