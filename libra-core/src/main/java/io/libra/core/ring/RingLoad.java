package io.libra.core.ring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A ring of single-token nodes and its load by segment. Nodes are kept in token order. A
 * SimpleStrategy group's range lies on its owner and the next nodes clockwise; a
 * NetworkTopologyStrategy group's on the nodes {@link RingTopology} places it on, from the
 * nodes' {@code places} (needed then, for every node).
 */
public record RingLoad(List<RingNode> nodes, List<RingSegment> segments, Map<String, RingTopology.Place> places) {
    public RingLoad(List<RingNode> nodes, List<RingSegment> segments) {
        this(nodes, segments, Map.of());
    }

    public RingLoad {
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes: must not be empty");
        }
        if (segments == null || segments.isEmpty()) {
            throw new IllegalArgumentException("segments: must not be empty");
        }
        nodes = sorted(nodes);
        segments = List.copyOf(segments);
        Map<String, List<Long>> tokens = new TreeMap<>();
        nodes.forEach(n -> tokens.put(n.id(), List.of(n.token())));
        checkSegments(tokens, segments);
        places = Map.copyOf(new TreeMap<>(places));
        checkPlaces(tokens.keySet(), segments, places);
    }

    /** Whether some load is placed by data centre and rack (so every node needs its place). */
    public boolean placed() {
        return placed(segments);
    }

    static boolean placed(List<RingSegment> segments) {
        return segments.stream().anyMatch(s -> s.loads().stream().anyMatch(l -> !l.group().successor()));
    }

    static void checkPlaces(Set<String> ids, List<RingSegment> segments, Map<String, RingTopology.Place> places) {
        boolean placed = placed(segments);
        for (String id : ids) {
            if (placed && !places.containsKey(id)) {
                throw new IllegalArgumentException("places: node " + id + " has no data centre and rack, which "
                        + "NetworkTopologyStrategy placement needs");
            }
        }
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

    /** Segments in token order, and one ending at every node's every token. */
    static void checkSegments(Map<String, List<Long>> tokens, List<RingSegment> segments) {
        Set<Long> ends = new HashSet<>();
        for (int i = 0; i < segments.size(); i++) {
            long end = segments.get(i).endToken();
            if (i > 0 && end <= segments.get(i - 1).endToken()) {
                throw new IllegalArgumentException("segments[" + i + "].endToken: must be greater than the previous one");
            }
            ends.add(end);
        }
        tokens.forEach((id, ts) -> ts.forEach(t -> {
            if (!ends.contains(t)) {
                throw new IllegalArgumentException("segments: no segment ends at node " + id + "'s token " + t);
            }
        }));
    }
}
