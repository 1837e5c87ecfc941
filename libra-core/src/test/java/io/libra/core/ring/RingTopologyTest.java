package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.libra.core.ring.RingTopology.Place;
import io.libra.core.ring.RingTopology.Replication;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class RingTopologyTest {
    /** A ring of 2–8 nodes with 1–3 tokens each, over 1–2 data centres and 1–3 racks, and one keyspace. */
    record Case(Map<String, List<Long>> tokens, RingTopology topology, long probe) {
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<List<Long>> tokens = Arbitraries.longs().set().ofMinSize(2).ofMaxSize(20).map(s -> List.copyOf(s));
        Arbitrary<List<Integer>> picks = Arbitraries.integers().between(0, 99).list().ofSize(20);
        Arbitrary<Integer> nodes = Arbitraries.integers().between(2, 8);
        Arbitrary<List<Integer>> rfs = Arbitraries.integers().between(0, 4).list().ofSize(2);
        Arbitrary<Boolean> simple = Arbitraries.of(true, false);
        return Combinators.combine(tokens, picks, nodes, rfs, simple, Arbitraries.longs()).as((ts, p, n, rf, s, probe) -> {
            Map<String, List<Long>> byNode = new TreeMap<>();
            Map<String, Place> places = new TreeMap<>();
            for (int i = 0; i < ts.size(); i++) {
                String id = "n" + (i < n ? i : p.get(i) % n);
                byNode.computeIfAbsent(id, k -> new ArrayList<>()).add(ts.get(i));
                if (i < n) {
                    places.put(id, new Place("dc" + (p.get(i) % 2 + 1), "r" + (p.get(i) / 2 % 3 + 1)));
                }
            }
            Replication r = s ? Replication.simple(Math.max(1, rf.get(0)))
                    : Replication.networkTopology(Map.of("dc1", rf.get(0), "dc2", rf.get(1)));
            return new Case(byNode, new RingTopology(places, Map.of("ks", r)), probe);
        });
    }

    @Property(tries = 500)
    void replicasAreCassandrasPlacement(@ForAll("cases") Case c) {
        List<String> got = c.topology().replicas("ks", c.tokens(), c.probe());
        assertThat(got).doesNotHaveDuplicates();
        assertThat(new HashSet<>(got)).isEqualTo(reference(c));
    }

    /** Single tokens, SimpleStrategy: a node loses range exactly when its arc (t_{k-r}, t_k] is not inside its new one. */
    @Property(tries = 300)
    void losingAndGainingAreTheArcsThatShrinkOrGrow(@ForAll("cases") Case c) {
        Map<String, List<Long>> before = new TreeMap<>();
        c.tokens().forEach((id, ts) -> before.put(id, List.of(ts.get(0))));
        if (before.size() < 2) {
            return;
        }
        String mover = before.keySet().iterator().next();
        Set<Long> taken = new HashSet<>();
        before.values().forEach(taken::addAll);
        if (taken.contains(c.probe())) {
            return;
        }
        Map<String, List<Long>> after = new TreeMap<>(before);
        after.put(mover, List.of(c.probe()));
        int rf = Math.max(1, c.topology().keyspaces().get("ks").rfByDc().values().stream().mapToInt(Integer::intValue).sum() % 4);
        RingTopology simple = new RingTopology(c.topology().nodes(), Map.of("ks", Replication.simple(rf)));
        Set<String> losing = new HashSet<>();
        Set<String> gaining = new HashSet<>();
        for (String id : before.keySet()) {
            long[] old = arc(before, id, rf);
            long[] now = arc(after, id, rf);
            if (!inside(old, now)) {
                losing.add(id);
            }
            if (!inside(now, old)) {
                gaining.add(id);
            }
        }
        assertThat(simple.losing("ks", before, after)).isEqualTo(losing);
        assertThat(simple.gaining("ks", before, after)).isEqualTo(gaining);
    }

    @Test
    void twoRacksAlternateWhereTheSuccessorModelWouldNot() {
        Map<String, List<Long>> ring = new LinkedHashMap<>();
        ring.put("a", List.of(10L));
        ring.put("b", List.of(20L));
        ring.put("c", List.of(30L));
        ring.put("d", List.of(40L));
        RingTopology t = new RingTopology(Map.of("a", new Place("dc1", "r1"), "b", new Place("dc1", "r1"),
                "c", new Place("dc1", "r2"), "d", new Place("dc1", "r2")),
                Map.of("ks", Replication.networkTopology(Map.of("dc1", 2))));
        assertThat(t.replicas("ks", ring, 5)).containsExactly("a", "c");
        assertThat(t.replicas("ks", ring, 35)).containsExactly("d", "a");
        // b moving 20 -> 25 takes (20, 25] from a (rack r1 for r1), where the successor model would take it from d
        Map<String, List<Long>> moved = Map.of("a", List.of(10L), "b", List.of(25L), "c", List.of(30L), "d", List.of(40L));
        assertThat(t.losing("ks", ring, moved)).containsExactly("a");
        assertThat(t.gaining("ks", ring, moved)).containsExactly("b");
    }

    @Test
    void aRangesReplicasAreEachFactorCappedAtTheNodesOfItsDataCentre() {
        Map<String, Place> places = Map.of("a", new Place("dc1", "r1"), "b", new Place("dc1", "r2"),
                "c", new Place("dc2", "r1"), "d", new Place("dc2", "r1"), "e", new Place("dc2", "r2"));
        RingTopology t = new RingTopology(places, Map.of());
        List<String> all = List.of("a", "b", "c", "d", "e");
        assertThat(t.replicas(Replication.networkTopology(Map.of("dc1", 3, "dc2", 2)), all)).isEqualTo(2 + 2);
        assertThat(t.replicas(Replication.networkTopology(Map.of("dc1", 0, "dc2", 3)), all)).isEqualTo(3);
        assertThat(t.replicas(Replication.simple(3), List.of("a", "b"))).isEqualTo(2);
        assertThat(t.replicas(new ReplicaGroup(Replication.networkTopology(Map.of("dc2", 2)), "dc2"), List.of("a", "c")))
                .isEqualTo(1);
        assertThatThrownBy(() -> t.replicas(Replication.networkTopology(Map.of("dc1", 1)), List.of("a", "x")))
                .hasMessage("node x: no data centre and rack known");
    }

    @Test
    void anUnknownKeyspaceOrNodeIsOneLine() {
        RingTopology t = new RingTopology(Map.of("a", new Place("dc1", "r1")), Map.of("ks", Replication.simple(1)));
        assertThatThrownBy(() -> t.replicas("other", Map.of("a", List.of(1L)), 0))
                .hasMessage("keyspace other: no replication known");
        assertThatThrownBy(() -> new RingTopology(Map.of(), Map.of("ks", Replication.networkTopology(Map.of("dc1", 1))))
                .replicas("ks", Map.of("a", List.of(1L)), 0)).hasMessage("node a: no data centre and rack known");
    }

    /** The placement as the brief of #10 states it: per DC, distinct racks first, then repeat racks in ring order. */
    private static Set<String> reference(Case c) {
        Replication r = c.topology().keyspaces().get("ks");
        List<String> walk = walk(c.tokens(), c.probe());
        Set<String> out = new HashSet<>();
        if (r.strategy().equals(RingTopology.SIMPLE)) {
            walk.stream().distinct().limit(r.rfByDc().get("")).forEach(out::add);
            return out;
        }
        r.rfByDc().forEach((dc, rf) -> {
            List<String> inDc = new ArrayList<>();
            Set<String> racks = new HashSet<>();
            for (String id : walk) {
                Place p = c.topology().nodes().get(id);
                if (p.dc().equals(dc) && inDc.size() < rf && !inDc.contains(id) && racks.add(p.rack())) {
                    inDc.add(id);
                }
            }
            for (String id : walk) {
                if (c.topology().nodes().get(id).dc().equals(dc) && inDc.size() < rf && !inDc.contains(id)) {
                    inDc.add(id);
                }
            }
            out.addAll(inDc);
        });
        return out;
    }

    /** Owners in ring order from the first token at or after {@code probe}, one entry per token. */
    private static List<String> walk(Map<String, List<Long>> tokens, long probe) {
        TreeMap<Long, String> ring = new TreeMap<>();
        tokens.forEach((id, ts) -> ts.forEach(t -> ring.put(t, id)));
        List<String> out = new ArrayList<>(ring.tailMap(probe, true).values());
        out.addAll(ring.headMap(probe, false).values());
        return out;
    }

    private static long[] arc(Map<String, List<Long>> tokens, String id, int rf) {
        TreeMap<Long, String> byToken = new TreeMap<>();
        tokens.forEach((n, ts) -> byToken.put(ts.get(0), n));
        List<Map.Entry<Long, String>> ring = new ArrayList<>(byToken.entrySet());
        int k = 0;
        while (!ring.get(k).getValue().equals(id)) {
            k++;
        }
        int n = ring.size();
        if (rf >= n) {
            return new long[] {ring.get(k).getKey(), ring.get(k).getKey()};
        }
        return new long[] {ring.get(Math.floorMod(k - rf, n)).getKey(), ring.get(k).getKey()};
    }

    /** (a0, a1] inside (b0, b1] clockwise; equal ends mean the whole ring. */
    private static boolean inside(long[] a, long[] b) {
        if (b[0] == b[1]) {
            return true;
        }
        if (a[0] == a[1]) {
            return false;
        }
        long offset = a[0] - b[0];
        long lenA = a[1] - a[0];
        long lenB = b[1] - b[0];
        return Long.compareUnsigned(offset, lenB) <= 0 && Long.compareUnsigned(lenA, lenB - offset) <= 0;
    }
}
