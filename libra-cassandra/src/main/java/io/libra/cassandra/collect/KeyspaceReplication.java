package io.libra.cassandra.collect;

import io.libra.core.ring.RingTopology;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A keyspace's replication as its nodes report it (StorageService.getKeyspaceReplicationInfo:
 * the strategy's simple class name, a space, then its options map, e.g.
 * {@code SimpleStrategy {replication_factor=2}} or {@code NetworkTopologyStrategy {dc1=3, dc2=2}}).
 *
 * @param strategy the class's simple name
 * @param options  the options as written (NetworkTopologyStrategy: data centre -> factor; a
 *                 transient factor reads "3/1")
 */
public record KeyspaceReplication(String keyspace, String strategy, Map<String, String> options) {
    public static final String SIMPLE = "SimpleStrategy";
    public static final String NTS = "NetworkTopologyStrategy";

    public KeyspaceReplication {
        options = Map.copyOf(options);
    }

    /** @throws IllegalArgumentException with one line naming the keyspace when {@code info} is not of that shape */
    public static KeyspaceReplication parse(String keyspace, String info) {
        String s = info == null ? "" : info.trim();
        int space = s.indexOf(' ');
        if (space < 1 || !s.endsWith("}") || s.charAt(space + 1) != '{') {
            throw new IllegalArgumentException("keyspace " + keyspace + ": replication \"" + s
                    + "\" is not \"<strategy> {option=value, ...}\"");
        }
        Map<String, String> options = new TreeMap<>();
        String body = s.substring(space + 2, s.length() - 1).trim();
        for (String pair : body.isEmpty() ? new String[0] : body.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("keyspace " + keyspace + ": replication option \"" + pair.trim()
                        + "\" is not option=value");
            }
            options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return new KeyspaceReplication(keyspace, s.substring(0, space), options);
    }

    /** SimpleStrategy's replication_factor, or a data centre's factor under NetworkTopologyStrategy; 0 when absent. */
    public int factor(String option) {
        String v = options.get(option);
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return -1; // a transient factor ("3/1") or not a number: see transientOrOdd
        }
    }

    /** The options whose factor is not a plain whole number (transient replication, say). */
    public Map<String, String> transientOrOdd() {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> {
            if (factor(k) < 0) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * Core's view of this replication (SimpleStrategy: its factor; otherwise a factor per option),
     * or empty when a factor is transient or unreadable, which core cannot place.
     */
    public Optional<RingTopology.Replication> toCore() {
        if (!transientOrOdd().isEmpty()) {
            return Optional.empty();
        }
        if (strategy.equals(SIMPLE)) {
            return Optional.of(RingTopology.Replication.simple(factor("replication_factor")));
        }
        Map<String, Integer> factors = new TreeMap<>();
        options.keySet().forEach(o -> factors.put(o, factor(o)));
        return Optional.of(new RingTopology.Replication(strategy, factors));
    }

    /** As Cassandra writes it, options sorted. */
    public String describe() {
        return strategy + " " + new TreeMap<>(options);
    }
}
