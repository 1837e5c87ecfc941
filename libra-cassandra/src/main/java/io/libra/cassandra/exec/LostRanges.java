package io.libra.cassandra.exec;

import io.libra.core.ring.Tokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which nodes lose ranges when one token moves (they need cleanup): with replication factor
 * r node k holds the arc (t_{k-r}, t_k]; it lost data when its old arc is not inside its new.
 */
final class LostRanges {
    private LostRanges() {
    }

    /** Nodes whose replicated arc loses some range: they need cleanup. */
    static List<String> nodes(Map<String, Long> before, String mover, long newToken, int rf) {
        return changed(before, mover, newToken, rf, true);
    }

    /** Nodes whose replicated arc gains some range: they receive streams (and need the disk for them). */
    static List<String> gaining(Map<String, Long> before, String mover, long newToken, int rf) {
        return changed(before, mover, newToken, rf, false);
    }

    private static List<String> changed(Map<String, Long> before, String mover, long newToken, int rf, boolean losing) {
        Map<String, Long> after = new java.util.HashMap<>(before);
        after.put(mover, newToken);
        List<String> b = order(before);
        List<String> a = order(after);
        int n = b.size();
        List<String> out = new ArrayList<>();
        if (rf >= n) {
            return out;
        }
        for (String node : b) {
            long[] old = arc(b, before, node, rf);
            long[] now = arc(a, after, node, rf);
            if (losing ? !inside(old, now) : !inside(now, old)) {
                out.add(node);
            }
        }
        return out;
    }

    private static List<String> order(Map<String, Long> tokens) {
        TreeMap<Long, String> byToken = new TreeMap<>();
        tokens.forEach((k, v) -> byToken.put(v, k));
        return new ArrayList<>(byToken.values());
    }

    private static long[] arc(List<String> ring, Map<String, Long> tokens, String node, int rf) {
        int n = ring.size();
        int k = ring.indexOf(node);
        return new long[] {tokens.get(ring.get(Math.floorMod(k - rf, n))), tokens.get(node)};
    }

    /** (a0, a1] inside (b0, b1], clockwise. */
    private static boolean inside(long[] a, long[] b) {
        long offset = Tokens.clockwise(b[0], a[0]);
        long lenA = Tokens.clockwise(a[0], a[1]);
        long lenB = Tokens.clockwise(b[0], b[1]);
        return Long.compareUnsigned(offset, lenB) <= 0 && Long.compareUnsigned(lenA, lenB - offset) <= 0;
    }
}
