package io.libra.core.schedule;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * An indexed binary heap of node indices ordered by a key the caller computes, so that after
 * a move only the two nodes involved are re-positioned (O(log n)) instead of rescanning all
 * nodes. Ties break on the lower index, which keeps planning deterministic.
 */
final class NodeHeap {
    private final IntToDoubleFunction keyOf;
    private final boolean max;
    private final int[] heap;
    private final int[] pos;
    private final double[] key;
    private int size;

    NodeHeap(int nodes, IntToDoubleFunction keyOf, boolean max) {
        this.keyOf = keyOf;
        this.max = max;
        this.heap = new int[nodes];
        this.pos = new int[nodes];
        this.key = new double[nodes];
        Arrays.fill(pos, -1);
        for (int j = 0; j < nodes; j++) {
            add(j);
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    int peek() {
        return heap[0];
    }

    boolean contains(int node) {
        return pos[node] >= 0;
    }

    void add(int node) {
        if (contains(node)) {
            update(node);
            return;
        }
        key[node] = keyOf.applyAsDouble(node);
        heap[size] = node;
        pos[node] = size;
        up(size++);
    }

    void remove(int node) {
        int i = pos[node];
        if (i < 0) {
            return;
        }
        int last = heap[--size];
        pos[node] = -1;
        if (i < size) {
            heap[i] = last;
            pos[last] = i;
            up(i);
            down(pos[last]);
        }
    }

    /** Re-reads the node's key and restores heap order. */
    void update(int node) {
        int i = pos[node];
        if (i < 0) {
            return;
        }
        key[node] = keyOf.applyAsDouble(node);
        up(i);
        down(pos[node]);
    }

    /** The {@code k} best nodes in order, without disturbing the heap. */
    int[] top(int k) {
        int n = Math.min(k, size);
        int[] out = new int[n];
        int[] frontier = new int[Math.min(size, 2 * n + 1)];
        int fsize = 0;
        if (size > 0) {
            frontier[fsize++] = 0;
        }
        for (int t = 0; t < n; t++) {
            int bestAt = 0;
            for (int f = 1; f < fsize; f++) {
                if (before(heap[frontier[f]], heap[frontier[bestAt]])) {
                    bestAt = f;
                }
            }
            int i = frontier[bestAt];
            frontier[bestAt] = frontier[--fsize];
            out[t] = heap[i];
            for (int c = 2 * i + 1; c <= 2 * i + 2 && c < size; c++) {
                frontier[fsize++] = c;
            }
        }
        return out;
    }

    private boolean before(int a, int b) {
        double ka = key[a];
        double kb = key[b];
        if (ka != kb) {
            return max ? ka > kb : ka < kb;
        }
        return a < b;
    }

    private void up(int i) {
        int node = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(node, heap[parent])) {
                break;
            }
            place(heap[parent], i);
            i = parent;
        }
        place(node, i);
    }

    private void down(int i) {
        int node = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && before(heap[c + 1], heap[c])) {
                c++;
            }
            if (!before(heap[c], node)) {
                break;
            }
            place(heap[c], i);
            i = c;
        }
        place(node, i);
    }

    private void place(int node, int i) {
        heap[i] = node;
        pos[node] = i;
    }
}
