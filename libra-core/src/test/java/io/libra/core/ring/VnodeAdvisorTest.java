package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.plan.Balance;
import io.libra.core.ring.RingTopology.Place;
import io.libra.core.ring.RingTopology.Replication;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class VnodeAdvisorTest {
    private static final String SIMPLE = "simple";
    private static final String NTS = "nts";

    /** A ring and the topology naming its groups' keyspaces, for the oracle. */
    record Case(VnodeRing ring, RingTopology topology, Place place) {
    }

    /** 24 equal segments; 3 nodes with 4 tokens each, interleaved; RF 1; segments 4 and 5 are hot. */
    private static VnodeRing hotRing() {
        List<RingSegment> segs = new ArrayList<>();
        long step = Long.divideUnsigned(-1L, 24) + 1;
        for (int i = 0; i < 24; i++) {
            long end = i == 23 ? Long.MAX_VALUE : Long.MIN_VALUE + (i + 1) * step - 1;
            boolean hot = i == 4 || i == 5;
            segs.add(new RingSegment(end, List.of(new ReplicaLoad(1, hot ? 4.0 : 0.2, hot ? 4e6 : 2e5, 1e6))));
        }
        List<VnodeRing.Member> members = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            List<Long> tokens = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                tokens.add(segs.get(2 * (3 * k + j) + 1).endToken());
            }
            members.add(new VnodeRing.Member("n" + j, tokens, 0.1, 1e4));
        }
        return new VnodeRing(members, segs, Map.of());
    }

    @Test
    void theNewNodesTokensSplitTheHotRangesAndBeatSplittingTheWidest() {
        VnodeRing ring = hotRing();
        VnodeAdvisor.Advice a = new VnodeAdvisor(4).advise(ring, 1, 4, null);
        assertThat(a.nodes()).singleElement().satisfies(n -> assertThat(n.tokens()).hasSize(4).doesNotHaveDuplicates());
        long hotFrom = ring.segments().get(3).endToken();
        long hotTo = ring.segments().get(5).endToken();
        assertThat(a.nodes().get(0).tokens()).as("a token inside the hot segments takes part of their load")
                .anySatisfy(t -> assertThat(t).isGreaterThan(hotFrom).isLessThan(hotTo));
        assertThat(a.after().imbalanceDegree()).isLessThan(a.before().imbalanceDegree() - 0.3);
        assertThat(a.after().imbalanceDegree()).isLessThan(a.splitAfter().imbalanceDegree());
        assertThat(a.nodes().get(0).initialToken()).startsWith("initial_token: ").contains(",");
    }

    @Test
    void whereLoadFollowsOwnershipTheBaselineIsTheSameAdvice() {
        VnodeRing hot = hotRing();
        List<RingSegment> even = new ArrayList<>();
        for (int i = 0; i < hot.segments().size(); i++) {
            long prev = hot.segments().get((i + hot.segments().size() - 1) % hot.segments().size()).endToken();
            double w = Tokens.width(Tokens.clockwise(prev, hot.segments().get(i).endToken()));
            even.add(new RingSegment(hot.segments().get(i).endToken(), List.of(new ReplicaLoad(2, w, w, 0))));
        }
        List<VnodeRing.Member> members = new ArrayList<>();
        hot.members().forEach(m -> members.add(new VnodeRing.Member(m.id(), m.tokens(), 0, 0)));
        VnodeAdvisor.Advice a = new VnodeAdvisor(4).advise(new VnodeRing(members, even, Map.of()), 2, 3, null);
        assertThat(a.split()).isEqualTo(a.nodes());
        assertThat(a.splitAfter()).isEqualTo(a.after());
    }

    @Test
    void anyTokensAreWeighedByTheAdvicesModel() {
        VnodeRing ring = hotRing();
        VnodeAdvisor advisor = new VnodeAdvisor(4);
        VnodeAdvisor.Advice a = advisor.advise(ring, 1, 4, null);
        assertThat(advisor.evaluate(ring, a.nodes().get(0).tokens(), null)).isEqualTo(a.after());
        assertThat(advisor.evaluate(ring, a.split().get(0).tokens(), null)).isEqualTo(a.splitAfter());
        long cold = ring.segments().get(0).endToken() - 1;
        assertThat(advisor.evaluate(ring, List.of(cold), null).imbalanceDegree()).as("one token in a cold range")
                .isGreaterThan(a.after().imbalanceDegree());
        assertThatThrownBy(() -> advisor.evaluate(ring, List.of(), null)).hasMessage("tokens: from 1 to 256 are needed, got 0");
    }

    @Test
    void severalJoiningNodesAreWeighedInTurn() {
        VnodeRing ring = hotRing();
        VnodeAdvisor advisor = new VnodeAdvisor(4);
        VnodeAdvisor.Advice a = advisor.advise(ring, 2, 3, null);
        List<List<Long>> nodes = a.nodes().stream().map(VnodeAdvisor.NewNode::tokens).toList();
        assertThat(advisor.evaluateJoining(ring, nodes, null)).isEqualTo(a.after());
        assertThat(advisor.evaluateJoining(ring, a.split().stream().map(VnodeAdvisor.NewNode::tokens).toList(), null))
                .isEqualTo(a.splitAfter());
        long first = nodes.get(0).get(0);
        assertThatThrownBy(() -> advisor.evaluateJoining(ring, List.of(nodes.get(0), List.of(first)), null))
                .hasMessage("tokens: " + first + " is already evaluated-1's token");
    }

    /**
     * A ring like VnodeRingIT's: 3 nodes × 4 tokens dealt at random over 96 equal segments (its
     * sub-ranges), each with an RF 3 and a heavier RF 1 load drawn log-normal, and a background
     * per node; then 300 sets of 4 tokens drawn at random from the same generator.
     */
    private static double[] adviceAgainstRandomTokens(long seed) {
        java.util.Random r = new java.util.Random(seed);
        List<RingSegment> segs = new ArrayList<>();
        long step = Long.divideUnsigned(-1L, 96) + 1;
        for (int i = 0; i < 96; i++) {
            long end = i == 95 ? Long.MAX_VALUE : Long.MIN_VALUE + (i + 1) * step - 1;
            double cpu = Math.exp(r.nextGaussian());
            double disk = Math.exp(r.nextGaussian());
            segs.add(new RingSegment(end, List.of(new ReplicaLoad(3, cpu, disk, 1e6), new ReplicaLoad(1, 3 * cpu, 3 * disk, 1e6))));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 96; i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, r);
        List<VnodeRing.Member> members = new ArrayList<>();
        Set<Long> taken = new HashSet<>();
        for (int j = 0; j < 3; j++) {
            List<Long> own = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                own.add(segs.get(order.get(4 * j + k)).endToken());
            }
            taken.addAll(own);
            members.add(new VnodeRing.Member("n" + j, own, 8 * Math.abs(r.nextGaussian()), 8 * Math.abs(r.nextGaussian())));
        }
        VnodeRing ring = new VnodeRing(members, segs, Map.of());
        VnodeAdvisor advisor = new VnodeAdvisor(4);
        double best = Double.MAX_VALUE;
        for (int k = 0; k < 300; k++) {
            List<Long> tokens = new ArrayList<>();
            while (tokens.size() < 4) {
                long t = r.nextLong();
                if (!taken.contains(t) && !tokens.contains(t)) {
                    tokens.add(t);
                }
            }
            best = Math.min(best, advisor.evaluate(ring, tokens, null).imbalanceDegree());
        }
        return new double[] {advisor.advise(ring, 1, 4, null).after().imbalanceDegree(), best};
    }

    /**
     * The search does not settle where no one token can move for the better but several together
     * could: on these rings the token by token search with its put-back pass alone advised Δ
     * 0.316 and 0.185 where the best of 300 random token sets gave 0.226 and 0.085; with the
     * spread starts the advice beats every one of them.
     */
    @Test
    void theAdviceBeatsTokensDealtAtRandom() {
        for (long seed : new long[] {5, 17}) {
            double[] d = adviceAgainstRandomTokens(seed);
            assertThat(d[0]).as("ring %d: the advice's Δ against the best of 300 random token sets", seed)
                    .isLessThanOrEqualTo(d[1]);
        }
    }

    @Test
    void refusesWhatItCannotAdvise() {
        VnodeAdvisor advisor = new VnodeAdvisor(2);
        assertThatThrownBy(() -> advisor.advise(hotRing(), 1, 0, null)).hasMessage("num_tokens: must be from 1 to 256, got 0");
        assertThatThrownBy(() -> advisor.advise(hotRing(), 17, 4, null)).hasMessage("count: must be from 1 to 16, got 17");
        Case nts = ring(java.util.Collections.nCopies(24, 1.0), List.of(-5L, 7L, 9L, 11L), List.of(0, 1, 2, 3), 2, List.of(1, 1), false);
        assertThatThrownBy(() -> advisor.advise(nts.ring(), 1, 2, null)).hasMessageStartingWith("place: ");
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<List<Double>> loads = Arbitraries.doubles().between(0, 10).list().ofSize(24);
        // segment ends at least 2^32 apart, so each can be cut into slices
        Arbitrary<List<Long>> ends = Arbitraries.integers().set().ofMinSize(4).ofMaxSize(12)
                .map(s -> s.stream().sorted().map(i -> (long) i << 32).toList());
        Arbitrary<List<Integer>> owners = Arbitraries.integers().between(0, 5).list().ofSize(12);
        Arbitrary<Integer> nodes = Arbitraries.integers().between(2, 4);
        Arbitrary<List<Integer>> rfs = Arbitraries.integers().between(1, 3).list().ofSize(2);
        Arbitrary<Boolean> simple = Arbitraries.of(true, false);
        return Combinators.combine(loads, ends, owners, nodes, rfs, simple).as(VnodeAdvisorTest::ring)
                .filter(c -> c.ring().members().size() >= 2);
    }

    /**
     * Segments end at {@code ends}; each end is a token of node owners[i] % nodes with probability
     * about one half (the rest are plain segment ends); places over two data centres and racks.
     */
    static Case ring(List<Double> l, List<Long> ends, List<Integer> owners, int nodes, List<Integer> rf, boolean simple) {
        Map<String, Place> places = new TreeMap<>();
        for (int j = 0; j < nodes; j++) {
            places.put("n" + j, new Place("dc" + (j % 2 + 1), "r" + (j / 2 % 2 + 1)));
        }
        Replication nts = Replication.networkTopology(Map.of("dc1", rf.get(0), "dc2", rf.get(1)));
        Map<String, List<Long>> tokens = new TreeMap<>();
        for (int i = 0; i < ends.size(); i++) {
            int o = owners.get(i);
            if (o < 2 * nodes - 1 || i == 0) {
                tokens.computeIfAbsent("n" + (o % nodes), k -> new ArrayList<>()).add(ends.get(i));
            }
        }
        List<RingSegment> segs = new ArrayList<>();
        for (int i = 0; i < ends.size(); i++) {
            List<ReplicaLoad> loads = new ArrayList<>();
            if (simple) {
                loads.add(new ReplicaLoad(rf.get(0), l.get(i), l.get(12 + i), 1e6));
            } else {
                for (String dc : List.of("dc1", "dc2")) {
                    if (tokens.keySet().stream().anyMatch(id -> places.get(id).dc().equals(dc))) {
                        double w = dc.equals("dc1") ? 1 : 0.5;
                        loads.add(new ReplicaLoad(new ReplicaGroup(nts, dc), w * l.get(i), w * l.get(12 + i), 1e6));
                    }
                }
            }
            segs.add(new RingSegment(ends.get(i), loads));
        }
        List<VnodeRing.Member> members = new ArrayList<>();
        tokens.forEach((id, ts) -> members.add(new VnodeRing.Member(id, ts, l.get(id.charAt(1) - '0') / 10, 0)));
        Map<String, Place> used = new TreeMap<>(places);
        used.keySet().retainAll(tokens.keySet());
        used.put("new-1", new Place("dc1", "r2"));
        used.put("new-2", new Place("dc1", "r2"));
        RingTopology topology = new RingTopology(used, Map.of(SIMPLE, Replication.simple(rf.get(0)), NTS, nts));
        used.remove("new-1");
        used.remove("new-2");
        return new Case(new VnodeRing(members, segs, simple ? Map.of() : used), topology,
                simple ? null : new Place("dc1", "r2"));
    }

    /**
     * The advice predicts what a plain oracle computes for the ring with the new nodes at their
     * tokens, no base load of their own: every piece of a segment (cut at every token, widths in
     * exact integers) on each replica {@link RingTopology#replicas} gives it.
     */
    @Property(tries = 150)
    void thePredictionIsTheRangesTheNewNodesTake(@ForAll("cases") Case c, @ForAll @IntRange(min = 1, max = 2) int count,
                                                 @ForAll @IntRange(min = 1, max = 3) int numTokens) {
        VnodeAdvisor.Advice a = new VnodeAdvisor(3).advise(c.ring(), count, numTokens, c.place());
        assertBalance(a.before(), reference(c, List.of()));
        assertBalance(a.after(), reference(c, a.nodes()));
        assertBalance(a.splitAfter(), reference(c, a.split()));
        for (List<VnodeAdvisor.NewNode> advised : List.of(a.nodes(), a.split())) {
            Set<Long> all = new HashSet<>();
            c.ring().members().forEach(m -> all.addAll(m.tokens()));
            assertThat(advised).hasSize(count).allSatisfy(n -> {
                assertThat(n.tokens()).hasSize(numTokens);
                n.tokens().forEach(t -> assertThat(all.add(t)).as("token %s is new", t).isTrue());
            });
        }
    }

    /**
     * No token of the advised node could go to another free slice and give a lower Δ: the token
     * by token search is followed by putting each token back where it does most, so a token placed
     * early for a range a later one relieved better does not stay there.
     */
    @Property(tries = 150)
    void noAdvisedTokenWouldDoBetterElsewhere(@ForAll("cases") Case c, @ForAll @IntRange(min = 2, max = 4) int numTokens) {
        VnodeAdvisor.Advice a = new VnodeAdvisor(3).advise(c.ring(), 1, numTokens, c.place());
        VnodeLoads model = new VnodeLoads(c.ring(), 3, "new-1", c.place());
        List<Long> tokens = a.nodes().get(0).tokens();
        double advised = a.after().imbalanceDegree();
        for (long t : tokens) {
            for (int p = 0; p < model.slices.m; p++) {
                long other = model.slices.end[p];
                if (tokens.contains(other) || c.ring().tokens().values().stream().anyMatch(ts -> ts.contains(other))) {
                    continue;
                }
                List<Long> moved = new ArrayList<>(tokens);
                moved.set(moved.indexOf(t), other);
                double d = new VnodeAdvisor(3).evaluate(c.ring(), moved, c.place()).imbalanceDegree();
                assertThat(d).as("token %s moved to %s", t, other).isGreaterThanOrEqualTo(advised - 1e-9);
            }
        }
    }

    /** The search's shortcut (only the ranges a new token's place reaches) gives the loads a full evaluation gives. */
    @Property(tries = 150)
    void oneMoreTokenCostsOnlyTheRangesItReachesAndGivesTheSameLoads(@ForAll("cases") Case c,
                                                                      @ForAll @IntRange(min = 0, max = 999) int at,
                                                                      @ForAll @IntRange(min = 0, max = 4) int who) {
        // the last index is a node joining with its first token
        VnodeLoads model = new VnodeLoads(c.ring(), 3, "new-1", c.place());
        VnodeLoads.Layout layout = model.layout(c.ring());
        List<Integer> free = new ArrayList<>();
        for (int p = 0; p < model.slices.m; p++) {
            if (java.util.Arrays.binarySearch(layout.pos(), p) < 0) {
                free.add(p);
            }
        }
        int p = free.get(at % free.size());
        int j = who % model.ids.size();
        VnodeLoads.Evaluated now = model.evaluate(layout);
        double[][] shortcut = model.loadsWith(now, p, j, model.incremental(now, j));
        double[][] full = model.loads(layout.plus(p, j));
        for (int k = 0; k < full.length; k++) {
            assertThat(shortcut[k][0]).as("cpu of %s", model.ids.get(k)).isCloseTo(full[k][0], Offset.offset(1e-9));
            assertThat(shortcut[k][1]).as("disk of %s", model.ids.get(k)).isCloseTo(full[k][1], Offset.offset(1e-9));
        }
    }

    private static Balance reference(Case c, List<VnodeAdvisor.NewNode> added) {
        Map<String, List<Long>> tokens = new TreeMap<>(c.ring().tokens());
        added.forEach(n -> tokens.put(n.id(), n.tokens()));
        Map<String, double[]> loads = new TreeMap<>();
        c.ring().members().forEach(m -> loads.put(m.id(), new double[] {m.baseCpu(), m.baseDisk()}));
        added.forEach(n -> loads.put(n.id(), new double[2]));
        List<RingSegment> segs = c.ring().segments();
        TreeSet<Long> cuts = new TreeSet<>();
        tokens.values().forEach(cuts::addAll);
        for (int i = 0; i < segs.size(); i++) {
            long start = segs.get((i - 1 + segs.size()) % segs.size()).endToken();
            long end = segs.get(i).endToken();
            List<Long> inside = new ArrayList<>();
            cuts.forEach(t -> {
                if (ArcReference.overlap(start, end, t - 1, t) > 0 && t != end) {
                    inside.add(t);
                }
            });
            inside.sort((x, y) -> Long.compareUnsigned(x - start, y - start));
            inside.add(end);
            long from = start;
            for (long to : inside) {
                double f = ArcReference.width(from, to) / ArcReference.width(start, end);
                for (ReplicaLoad l : segs.get(i).loads()) {
                    for (String id : holders(c.topology(), tokens, to, l.group())) {
                        loads.get(id)[0] += f * l.cpu();
                        loads.get(id)[1] += f * l.disk();
                    }
                }
                from = to;
            }
        }
        // NetworkTopologyStrategy alone: each data centre against its own mean (LoadPools)
        boolean simple = c.ring().places().isEmpty();
        return ArcReference.balance(loads, id -> simple ? "ring" : c.topology().nodes().get(id).dc());
    }

    private static List<String> holders(RingTopology topology, Map<String, List<Long>> tokens, long end, ReplicaGroup g) {
        if (g.successor()) {
            return topology.replicas(SIMPLE, tokens, end);
        }
        return topology.replicas(NTS, tokens, end).stream()
                .filter(id -> topology.nodes().get(id).dc().equals(g.dc())).toList();
    }

    private static void assertBalance(Balance actual, Balance expected) {
        assertThat(actual.cpuMaxOverMean()).isCloseTo(expected.cpuMaxOverMean(), Offset.offset(1e-6));
        assertThat(actual.diskMaxOverMean()).isCloseTo(expected.diskMaxOverMean(), Offset.offset(1e-6));
    }
}
