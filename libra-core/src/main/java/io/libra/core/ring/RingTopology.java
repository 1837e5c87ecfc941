package io.libra.core.ring;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where Cassandra puts each keyspace's replicas: every node's data centre and rack, and every
 * keyspace's replication ({@code SimpleStrategy}: one factor; {@code NetworkTopologyStrategy}: a
 * factor per data centre). {@link #replicas} is Cassandra's own placement, vnodes included, and
 * the token planner searches with it ({@link ReplicaGroup}); {@link #unplanned} names each
 * keyspace it cannot place, {@link #unmodelled} each whose replicas are not simply the next nodes
 * clockwise.
 *
 * @param nodes      node id → its place (as the snitch reports it)
 * @param keyspaces  keyspace → its replication
 */
public record RingTopology(Map<String, Place> nodes, Map<String, Replication> keyspaces) {
    public static final String SIMPLE = "SimpleStrategy";
    public static final String NETWORK_TOPOLOGY = "NetworkTopologyStrategy";

    public RingTopology {
        nodes = Map.copyOf(new TreeMap<>(nodes));
        keyspaces = Map.copyOf(new TreeMap<>(keyspaces));
    }

    /** A node's data centre and rack. */
    public record Place(String dc, String rack) {
        public Place {
            if (dc == null || dc.isEmpty() || rack == null || rack.isEmpty()) {
                throw new IllegalArgumentException("place: dc and rack must be non-empty, got " + dc + "/" + rack);
            }
        }
    }

    /**
     * @param strategy the class name Cassandra reports (short form)
     * @param rfByDc   replication factor per data centre; for {@code SimpleStrategy} one entry under ""
     */
    public record Replication(String strategy, Map<String, Integer> rfByDc) {
        public Replication {
            rfByDc = Map.copyOf(new TreeMap<>(rfByDc));
            rfByDc.forEach((dc, rf) -> {
                if (rf < 0) {
                    throw new IllegalArgumentException("replication " + dc + ": factor must be >= 0, got " + rf);
                }
            });
        }

        public static Replication simple(int rf) {
            return new Replication(SIMPLE, Map.of("", rf));
        }

        public static Replication networkTopology(Map<String, Integer> rfByDc) {
            return new Replication(NETWORK_TOPOLOGY, rfByDc);
        }

        /** SimpleStrategy: the owner and the next nodes clockwise. */
        public boolean simple() {
            return strategy.equals(SIMPLE);
        }

        /** A strategy the ring model places: SimpleStrategy or NetworkTopologyStrategy. */
        public boolean modelled() {
            return simple() || strategy.equals(NETWORK_TOPOLOGY);
        }
    }

    /**
     * One line per keyspace whose replication the token planner cannot place: a strategy other than
     * SimpleStrategy and NetworkTopologyStrategy (transient factors are the reader's to refuse).
     */
    public List<String> unplanned() {
        List<String> out = new ArrayList<>();
        new TreeMap<>(keyspaces).forEach((ks, r) -> {
            if (!r.modelled()) {
                out.add("keyspace " + ks + ": " + r.strategy() + " is not modelled");
            }
        });
        return out;
    }

    /**
     * How many replicas a range of {@code r} has on the ring of {@code members}: each data centre's
     * factor capped at the members there (SimpleStrategy: at all members).
     *
     * @throws IllegalArgumentException naming a member whose place is unknown (NetworkTopologyStrategy)
     */
    public int replicas(Replication r, java.util.Collection<String> members) {
        return r.rfByDc().entrySet().stream().filter(e -> e.getValue() > 0)
                .mapToInt(e -> replicas(new ReplicaGroup(r, e.getKey()), members)).sum();
    }

    /** One replica group's replicas of a range on the ring of {@code members}: its factor capped at the members it may use. */
    public int replicas(ReplicaGroup g, java.util.Collection<String> members) {
        long usable = g.successor() ? members.size()
                : members.stream().filter(id -> place(nodes, id).dc().equals(g.dc())).count();
        return (int) Math.min(g.factor(), usable);
    }

    /**
     * Cassandra's replicas of the range holding {@code token}, in ring order from its primary.
     * SimpleStrategy: the next distinct nodes clockwise. NetworkTopologyStrategy, per data centre:
     * walking clockwise, a node in a rack not yet used is taken, one in a used rack only while
     * fewer racks than the factor leave room for repeats (as {@code NetworkTopologyStrategy.
     * calculateNaturalReplicas} does).
     *
     * @param tokensOfNode each node's tokens (several on a vnode ring)
     */
    public List<String> replicas(String keyspace, Map<String, List<Long>> tokensOfNode, long token) {
        Replication r = replication(keyspace);
        List<String> walk = walk(tokensOfNode, token);
        Set<String> chosen = new HashSet<>();
        if (r.simple()) {
            chosen.addAll(holders(ReplicaGroup.simple(r.rfByDc().get("")), nodes, walk));
        } else {
            r.rfByDc().forEach((dc, rf) -> {
                if (rf > 0) {
                    chosen.addAll(holders(new ReplicaGroup(r, dc), nodes, walk));
                }
            });
        }
        return walk.stream().distinct().filter(chosen::contains).toList();
    }

    /**
     * The nodes of one replica group holding the range whose primary starts {@code walk} (nodes in
     * ring order, one entry per token): SimpleStrategy's next distinct nodes; in a data centre,
     * a node in a rack not yet used is taken, one in a used rack only while fewer racks than the
     * factor leave room for repeats.
     */
    static Set<String> holders(ReplicaGroup group, Map<String, Place> places, List<String> walk) {
        return holders(group, places, Census.of(group, places, walk), walk).nodes();
    }

    /** A group's nodes and racks on the whole ring (whichever node a walk starts from). */
    record Census(int members, long racks) {
        static Census of(ReplicaGroup group, Map<String, Place> places, java.util.Collection<String> nodes) {
            List<String> in = nodes.stream().distinct()
                    .filter(id -> group.successor() || place(places, id).dc().equals(group.dc())).toList();
            return new Census(in.size(), group.successor() ? 1 : in.stream().map(id -> place(places, id).rack())
                    .distinct().count());
        }
    }

    /**
     * As {@link #holders(ReplicaGroup, Map, List)}, reading the walk only as far as it must: the
     * entries read are the holders' {@link Held#read}, so a token placed beyond them cannot change
     * the holders.
     */
    static Held holders(ReplicaGroup group, Map<String, Place> places, Census census, Iterable<String> walk) {
        int left = Math.min(group.factor(), census.members());
        long repeats = group.factor() - census.racks();
        Set<String> racksUsed = new HashSet<>();
        Set<String> out = new LinkedHashSet<>();
        int read = 0;
        for (java.util.Iterator<String> it = walk.iterator(); left > 0 && it.hasNext(); ) {
            String id = it.next();
            read++;
            if (out.contains(id) || !group.successor() && !place(places, id).dc().equals(group.dc())) {
                continue;
            }
            if (group.successor() || racksUsed.add(place(places, id).rack()) || repeats-- > 0) {
                out.add(id);
                left--;
            }
        }
        return new Held(out, read);
    }

    /** A range's holders, and how many walk entries deciding them took. */
    record Held(Set<String> nodes, int read) {
    }

    /** Nodes in ring order, one entry per token, from the primary of the range holding {@code token}. */
    private static List<String> walk(Map<String, List<Long>> tokensOfNode, long token) {
        TreeMap<Long, String> ring = new TreeMap<>();
        tokensOfNode.forEach((id, ts) -> ts.forEach(t -> {
            String other = ring.put(t, id);
            if (other != null && !other.equals(id)) {
                throw new IllegalArgumentException("ring: token " + Tokens.toKey(t) + " held by " + other + " and " + id);
            }
        }));
        if (ring.isEmpty()) {
            throw new IllegalArgumentException("ring: no tokens");
        }
        List<String> out = new ArrayList<>(ring.tailMap(token, true).values());
        out.addAll(ring.headMap(token, false).values());
        return out;
    }

    /** Nodes that lose some range of {@code keyspace} from {@code before} to {@code after}: they need cleanup. */
    public Set<String> losing(String keyspace, Map<String, List<Long>> before, Map<String, List<Long>> after) {
        return changed(keyspace, before, after);
    }

    /** Nodes that gain some range: they receive streams (and need the disk for them). */
    public Set<String> gaining(String keyspace, Map<String, List<Long>> before, Map<String, List<Long>> after) {
        return changed(keyspace, after, before);
    }

    /**
     * Nodes holding some range in {@code from} that they do not hold in {@code to}. Both rings'
     * tokens cut the ring into pieces that each lie inside one range of either ring, so each
     * piece is compared through its end token.
     */
    private Set<String> changed(String keyspace, Map<String, List<Long>> from, Map<String, List<Long>> to) {
        TreeSet<Long> cuts = new TreeSet<>();
        from.values().forEach(cuts::addAll);
        to.values().forEach(cuts::addAll);
        Set<String> out = new TreeSet<>();
        for (long t : cuts) {
            List<String> now = replicas(keyspace, to, t);
            replicas(keyspace, from, t).stream().filter(id -> !now.contains(id)).forEach(out::add);
        }
        return out;
    }

    private Replication replication(String keyspace) {
        Replication r = keyspaces.get(keyspace);
        if (r == null) {
            throw new IllegalArgumentException("keyspace " + keyspace + ": no replication known");
        }
        if (!r.modelled()) {
            throw new IllegalArgumentException("keyspace " + keyspace + ": " + r.strategy() + " is not modelled");
        }
        return r;
    }

    private static Place place(Map<String, Place> places, String node) {
        Place p = places.get(node);
        if (p == null) {
            throw new IllegalArgumentException("node " + node + ": no data centre and rack known");
        }
        return p;
    }
}
