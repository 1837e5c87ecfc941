package io.libra.core.schedule;

import java.util.Arrays;

/**
 * Which node each region sits on and, per node, its regions. Per-node lists are compacted
 * lazily: a region that left or died stays in the old list until the list is next read, and a
 * region that left and came back is listed once.
 */
final class RegionIndex {
    private int[] nodeOf;
    private boolean[] dead;
    private int[] seen;
    private int stamp;
    private final int[][] members;
    private final int[] counts;

    RegionIndex(int nodes, int regions) {
        this.nodeOf = new int[Math.max(16, regions)];
        this.dead = new boolean[nodeOf.length];
        this.seen = new int[nodeOf.length];
        this.members = new int[nodes][];
        this.counts = new int[nodes];
        for (int j = 0; j < nodes; j++) {
            members[j] = new int[4];
        }
    }

    void add(int r, int node) {
        if (r >= nodeOf.length) {
            nodeOf = Arrays.copyOf(nodeOf, Math.max(r + 1, nodeOf.length * 2));
            dead = Arrays.copyOf(dead, nodeOf.length);
            seen = Arrays.copyOf(seen, nodeOf.length);
        }
        nodeOf[r] = node;
        append(node, r);
    }

    void move(int r, int node) {
        nodeOf[r] = node;
        append(node, r);
    }

    void kill(int r) {
        dead[r] = true;
    }

    int nodeOf(int r) {
        return nodeOf[r];
    }

    /** Live regions of node j, in the order they arrived. */
    int[] members(int j) {
        int[] list = members[j];
        int kept = 0;
        stamp++;
        for (int k = 0; k < counts[j]; k++) {
            int r = list[k];
            if (!dead[r] && nodeOf[r] == j && seen[r] != stamp) {
                seen[r] = stamp;
                list[kept++] = r;
            }
        }
        counts[j] = kept;
        return Arrays.copyOf(list, kept);
    }

    private void append(int j, int r) {
        if (counts[j] == members[j].length) {
            members[j] = Arrays.copyOf(members[j], members[j].length * 2);
        }
        members[j][counts[j]++] = r;
    }
}
