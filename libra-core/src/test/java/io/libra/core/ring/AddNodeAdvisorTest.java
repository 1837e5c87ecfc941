package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.plan.Balance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class AddNodeAdvisorTest {
    /**
     * Three nodes at -6e18, 0, 6e18 over 12 equal segments; RF 1. The hot load sits in the
     * segments just after 0 (n3's arc, near its start), not where the widest arc's middle is.
     */
    private static RingLoad ring(int rf) {
        List<RingSegment> segs = new ArrayList<>();
        long step = Long.divideUnsigned(-1L, 12) + 1;
        for (int i = 0; i < 12; i++) {
            long end = i == 11 ? Long.MAX_VALUE : Long.MIN_VALUE + (i + 1) * step - 1;
            double cpu = i == 6 || i == 7 ? 3.0 : 0.2;
            double disk = i == 6 || i == 7 ? 3e6 : 2e5;
            segs.add(new RingSegment(end, List.of(new ReplicaLoad(rf, cpu, disk, 1e6))));
        }
        List<RingNode> nodes = List.of(new RingNode("n1", segs.get(1).endToken(), 0.1, 1e4, 1, 1),
                new RingNode("n2", segs.get(5).endToken(), 0.1, 1e4, 1, 1),
                new RingNode("n3", segs.get(11).endToken(), 0.1, 1e4, 1, 1));
        return new RingLoad(nodes, segs);
    }

    @Test
    void theNewNodeTakesTheHotRangeAndBeatsSplittingTheWidestArc() {
        RingLoad r = ring(1);
        AddNodeAdvisor.Advice a = new AddNodeAdvisor(4).advise(r, 1);
        assertThat(a.nodes()).hasSize(1);
        long t = a.nodes().get(0).token();
        // between n2 (segment 5) and the end of the hot pair (segment 7): it takes part of the hot load
        assertThat(t).isGreaterThan(r.segments().get(5).endToken()).isLessThanOrEqualTo(r.segments().get(7).endToken());
        assertThat(a.after().imbalanceDegree()).isLessThan(a.before().imbalanceDegree());
        assertThat(a.after().imbalanceDegree()).isLessThan(a.splitAfter().imbalanceDegree());
        assertThat(a.nodes().get(0).tokenKey()).hasSize(16);
    }

    @Test
    void anyTokenIsWeighedByTheAdvicesModel() {
        RingLoad r = ring(1);
        AddNodeAdvisor advisor = new AddNodeAdvisor(4);
        AddNodeAdvisor.Advice a = advisor.advise(r, 1);
        assertThat(advisor.evaluate(r, a.nodes().get(0).token(), null)).isEqualTo(a.after());
        assertThat(advisor.evaluate(r, a.split().get(0).token(), null)).isEqualTo(a.splitAfter());
        RingNode n1 = r.nodes().get(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> advisor.evaluate(r, n1.token(), null))
                .hasMessage("tokens: " + n1.token() + " is already " + n1.id() + "'s token");
    }

    /** Several joining nodes (Cassandra's allocator's, or an operator's) are weighed in bootstrap order, as the advice's own. */
    @Test
    void severalJoiningNodesAreWeighedInTurn() {
        RingLoad r = ring(2);
        AddNodeAdvisor advisor = new AddNodeAdvisor(4);
        AddNodeAdvisor.Advice a = advisor.advise(r, 2);
        List<Long> tokens = a.nodes().stream().map(AddNodeAdvisor.NewNode::token).toList();
        assertThat(advisor.evaluateJoining(r, tokens, null)).isEqualTo(a.after());
        assertThat(advisor.evaluateJoining(r, a.split().stream().map(AddNodeAdvisor.NewNode::token).toList(), null))
                .isEqualTo(a.splitAfter());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> advisor.evaluateJoining(r, List.of(tokens.get(0),
                tokens.get(0)), null)).hasMessage("tokens: " + tokens.get(0) + " is already evaluated-1's token");
    }

    @Test
    void severalNodesGetDistinctTokensAndReplicationIsModelled() {
        // with RF 2 both replicas of the hot range stay hot whatever joins: Max/Mean can only get
        // worse as the mean falls, so the advice is to lose least, and never more than the baseline
        AddNodeAdvisor.Advice a = new AddNodeAdvisor(4).advise(ring(2), 2);
        assertThat(a.nodes()).extracting(AddNodeAdvisor.NewNode::token).doesNotHaveDuplicates();
        assertThat(a.nodes()).extracting(AddNodeAdvisor.NewNode::id).containsExactly("new-1", "new-2");
        assertThat(a.split()).hasSize(2);
        assertThat(a.after().imbalanceDegree()).isLessThanOrEqualTo(a.splitAfter().imbalanceDegree() + 1e-9);
    }

    @Provide
    Arbitrary<RingLoad> rings() {
        Arbitrary<Integer> rf = Arbitraries.integers().between(1, 3);
        Arbitrary<List<Long>> ends = Arbitraries.longs().set().ofMinSize(4).ofMaxSize(14)
                .map(s -> s.stream().sorted().toList());
        Arbitrary<List<Double>> loads = Arbitraries.doubles().between(0, 10).list().ofSize(28);
        Arbitrary<List<Integer>> picks = Arbitraries.integers().between(0, 13).set().ofMinSize(2).ofMaxSize(5)
                .map(s -> s.stream().sorted().toList());
        return Combinators.combine(rf, ends, loads, picks).as((r, e, l, p) -> {
            List<RingSegment> segs = new ArrayList<>();
            for (int i = 0; i < e.size(); i++) {
                segs.add(new RingSegment(e.get(i), List.of(new ReplicaLoad(r, l.get(i), l.get(14 + i), 1e6))));
            }
            List<RingNode> nodes = new ArrayList<>();
            p.stream().map(i -> i % e.size()).distinct().forEach(i -> nodes.add(
                    new RingNode("n" + i, e.get(i), l.get(i) / 10, l.get(27 - i) / 10, 1, 1)));
            return new RingLoad(nodes, segs);
        }).filter(ring -> ring.nodes().size() >= 2);
    }

    /**
     * The advice predicts what the plain arc oracle computes for the ring with the new nodes at
     * their tokens and no base load of their own: the new nodes' share of the split segments,
     * nothing else, so the total load stays the ring's.
     */
    @Property(tries = 150)
    void thePredictionIsTheRangeTheNewNodesTake(@ForAll("rings") RingLoad ring, @ForAll @IntRange(min = 1, max = 2) int count) {
        AddNodeAdvisor.Advice a = new AddNodeAdvisor(3).advise(ring, count);
        assertBalance(a.before(), ArcReference.balance(ArcReference.loads(ring.nodes(), ring.segments())));
        assertBalance(a.after(), reference(ring, a.nodes()));
        assertBalance(a.splitAfter(), reference(ring, a.split()));
    }

    private static Balance reference(RingLoad ring, List<AddNodeAdvisor.NewNode> added) {
        List<RingNode> nodes = new ArrayList<>(ring.nodes());
        added.forEach(n -> nodes.add(new RingNode(n.id(), n.token())));
        Map<String, double[]> loads = ArcReference.loads(nodes, ring.segments());
        double expected = ring.nodes().stream().mapToDouble(RingNode::baseCpu).sum();
        for (RingSegment s : ring.segments()) {
            for (ReplicaLoad l : s.loads()) {
                expected += l.cpu() * Math.min(l.replicationFactor(), nodes.size());
            }
        }
        double total = loads.values().stream().mapToDouble(l -> l[0]).sum();
        assertThat(total).as("a joining node adds its replicas' load, no base of its own").isCloseTo(expected,
                Offset.offset(1e-6 * (1 + expected)));
        return ArcReference.balance(loads);
    }

    private static void assertBalance(Balance actual, Balance expected) {
        assertThat(actual.cpuMaxOverMean()).isCloseTo(expected.cpuMaxOverMean(), Offset.offset(1e-6));
        assertThat(actual.diskMaxOverMean()).isCloseTo(expected.diskMaxOverMean(), Offset.offset(1e-6));
    }
}
