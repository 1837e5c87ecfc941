package io.libra.core.ring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A ring of single-token nodes and its load by segment. Nodes are kept in token order, which
 * is also the replica order: with replication factor r (one data centre, no racks) node j
 * holds the primary arcs of itself and its r-1 predecessors.
 */
public record RingLoad(List<RingNode> nodes, List<RingSegment> segments) {
    public RingLoad {
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes: must not be empty");
        }
        if (segments == null || segments.isEmpty()) {
            throw new IllegalArgumentException("segments: must not be empty");
        }
        nodes = sorted(nodes);
        segments = List.copyOf(segments);
        checkSegments(nodes, segments);
    }

    private static List<RingNode> sorted(List<RingNode> nodes) {
        List<RingNode> s = new ArrayList<>(nodes);
        s.sort(Comparator.comparingLong(RingNode::token));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < s.size(); i++) {
            if (!ids.add(s.get(i).id())) {
                throw new IllegalArgumentException("nodes: duplicate id " + s.get(i).id());
            }
            if (i > 0 && s.get(i).token() == s.get(i - 1).token()) {
                throw new IllegalArgumentException("nodes: token " + s.get(i).token() + " owned twice");
            }
        }
        return List.copyOf(s);
    }

    private static void checkSegments(List<RingNode> nodes, List<RingSegment> segments) {
        Set<Long> ends = new HashSet<>();
        for (int i = 0; i < segments.size(); i++) {
            long end = segments.get(i).endToken();
            if (i > 0 && end <= segments.get(i - 1).endToken()) {
                throw new IllegalArgumentException("segments[" + i + "].endToken: must be greater than the previous one");
            }
            ends.add(end);
        }
        for (RingNode n : nodes) {
            if (!ends.contains(n.token())) {
                throw new IllegalArgumentException("segments: no segment ends at node " + n.id() + "'s token " + n.token());
            }
        }
    }
}
