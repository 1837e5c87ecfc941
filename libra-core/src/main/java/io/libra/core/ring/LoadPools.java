package io.libra.core.ring;

import java.util.List;
import java.util.Map;

/**
 * The sets of nodes that can pass load to each other by moving tokens. A NetworkTopologyStrategy
 * group's replicas stay in its data centre, whose share of the load is fixed by its factor, so a
 * data centre whose groups reach no other is a pool of its own and is balanced toward its own
 * mean (a two-node data centre beside a four-node one carries twice the load per node, and no
 * move changes that). A SimpleStrategy group spans the ring and joins every node into one pool.
 * Immutable.
 */
final class LoadPools {
    /** Per node (ring order): its pool's index. */
    private final int[] pool;
    private final int count;

    /** @param ids the nodes, each with its place in {@code places} where a data centre keeps a group's replicas */
    LoadPools(List<String> ids, List<ReplicaGroup> groups, Map<String, RingTopology.Place> places) {
        int n = ids.size();
        int[] parent = new int[n];
        for (int j = 0; j < n; j++) {
            parent[j] = j;
        }
        int[] first = new int[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            first[g] = -1;
            for (int j = 0; j < n; j++) {
                if (eligible(groups.get(g), ids.get(j), places)) {
                    first[g] = first[g] < 0 ? j : first[g];
                    parent[root(parent, j)] = root(parent, first[g]);
                }
            }
        }
        this.pool = new int[n];
        int[] index = new int[n];
        java.util.Arrays.fill(index, -1);
        int c = 0;
        for (int j = 0; j < n; j++) {
            int r = root(parent, j);
            index[r] = index[r] < 0 ? c++ : index[r];
            pool[j] = index[r];
        }
        this.count = c;
    }

    /** Whether the node may hold the group's replicas (a node of no known place holds no data centre's). */
    private static boolean eligible(ReplicaGroup g, String id, Map<String, RingTopology.Place> places) {
        RingTopology.Place p = places.get(id);
        return g.successor() || p != null && p.dc().equals(g.dc());
    }

    private static int root(int[] parent, int j) {
        while (parent[j] != j) {
            parent[j] = parent[parent[j]];
            j = parent[j];
        }
        return j;
    }

    /**
     * Each node's target in one dimension: its pool's load (which no token move changes) shared
     * among the pool's nodes by capacity (null: equally).
     */
    double[] targets(double[] load, double[] capacity) {
        double[] poolLoad = new double[count];
        double[] poolCapacity = new double[count];
        for (int j = 0; j < pool.length; j++) {
            poolLoad[pool[j]] += load[j];
            poolCapacity[pool[j]] += capacity == null ? 1 : capacity[j];
        }
        double[] target = new double[pool.length];
        for (int j = 0; j < pool.length; j++) {
            target[j] = poolLoad[pool[j]] * (capacity == null ? 1 : capacity[j]) / poolCapacity[pool[j]];
        }
        return target;
    }
}
