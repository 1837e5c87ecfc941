package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
    void severalNodesGetDistinctTokensAndReplicationIsModelled() {
        // with RF 2 both replicas of the hot range stay hot whatever joins: Max/Mean can only get
        // worse as the mean falls, so the advice is to lose least, and never more than the baseline
        AddNodeAdvisor.Advice a = new AddNodeAdvisor(4).advise(ring(2), 2);
        assertThat(a.nodes()).extracting(AddNodeAdvisor.NewNode::token).doesNotHaveDuplicates();
        assertThat(a.nodes()).extracting(AddNodeAdvisor.NewNode::id).containsExactly("new-1", "new-2");
        assertThat(a.split()).hasSize(2);
        assertThat(a.after().imbalanceDegree()).isLessThanOrEqualTo(a.splitAfter().imbalanceDegree() + 1e-9);
    }
}
