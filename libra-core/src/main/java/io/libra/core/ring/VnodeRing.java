package io.libra.core.ring;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A ring whose nodes may own several tokens (vnodes, {@code num_tokens} > 1), with its load by
 * segment: what the add-node advisor plans on there (vnodes cannot be moved, so growth is the one
 * lever). A node holds the ranges {@link RingTopology} places on it; every token ends a segment.
 *
 * @param places each node's data centre and rack: needed when some load is placed by
 *               NetworkTopologyStrategy ({@link ReplicaGroup}), may be empty otherwise
 */
public record VnodeRing(List<Member> members, List<RingSegment> segments, Map<String, RingTopology.Place> places) {
    public VnodeRing {
        if (members == null || members.isEmpty()) {
            throw new IllegalArgumentException("members: must not be empty");
        }
        if (segments == null || segments.isEmpty()) {
            throw new IllegalArgumentException("segments: must not be empty");
        }
        members = List.copyOf(members);
        segments = List.copyOf(segments);
        places = Map.copyOf(new TreeMap<>(places));
        Map<String, List<Long>> tokens = tokens(members);
        RingLoad.checkSegments(tokens, segments);
        RingLoad.checkPlaces(tokens.keySet(), segments, places);
    }

    /** The ring's num_tokens: the most tokens any member has (what a joining node takes). */
    public int numTokens() {
        return members.stream().mapToInt(m -> m.tokens().size()).max().orElse(1);
    }

    /** A node, its tokens, and the base load (what no segment explains) that never moves. */
    public record Member(String id, List<Long> tokens, double baseCpu, double baseDisk) {
        public Member {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("member.id: must be a non-empty string");
            }
            if (tokens == null || tokens.isEmpty()) {
                throw new IllegalArgumentException("member " + id + ": must own at least one token");
            }
            tokens = tokens.stream().sorted().toList();
            ReplicaLoad.nonNegative("baseCpu", baseCpu);
            ReplicaLoad.nonNegative("baseDisk", baseDisk);
        }
    }

    /** Whether some load is placed by NetworkTopologyStrategy, so new nodes need a data centre and rack. */
    public boolean placed() {
        return RingLoad.placed(segments);
    }

    /** Each node's tokens. */
    public Map<String, List<Long>> tokens() {
        return tokens(members);
    }

    private static Map<String, List<Long>> tokens(List<Member> members) {
        Map<String, List<Long>> out = new TreeMap<>();
        Set<Long> seen = new HashSet<>();
        for (Member m : members) {
            if (out.put(m.id(), m.tokens()) != null) {
                throw new IllegalArgumentException("members: duplicate id " + m.id());
            }
            m.tokens().forEach(t -> {
                if (!seen.add(t)) {
                    throw new IllegalArgumentException("members: token " + Tokens.toKey(t) + " owned twice");
                }
            });
        }
        return out;
    }

    /** The ring with {@code add} joined at its tokens, each segment holding one cut there by token width. */
    VnodeRing with(Member add, RingTopology.Place place) {
        List<Member> all = new ArrayList<>(members);
        all.add(add);
        List<RingSegment> segs = segments;
        for (long t : add.tokens()) {
            segs = RingApplier.splitAt(segs, t);
        }
        Map<String, RingTopology.Place> p = new TreeMap<>(places);
        if (place != null) {
            p.put(add.id(), place);
        }
        return new VnodeRing(all, segs, p);
    }
}
