package io.libra.core.plan;

/** The named conditions of §III-B and §IV-B that an action passed. */
public enum Constraint {
    /** A'_dst + α'_i &lt; 1 + λ in the critical dimension. */
    LOAD_CONSTRAINT,
    /** β'_i &lt; α'_i: the region weighs less in the non-critical dimension (mirrored for disk). */
    INTERFERENCE_CONSTRAINT,
    /**
     * In place of the interference constraint: the source is above the mean in the other
     * dimension too and the destination stays within 1 + λ there, so carrying both loads helps.
     */
    SHARED_RELIEF,
    /**
     * In place of the interference constraint: the region weighs less in the other dimension where it
     * leaves but not where it lands (the nodes' targets differ), and the destination stays within
     * 1 + λ in the other dimension.
     */
    HEADROOM_RELIEF,
    /**
     * In place of the interference constraint: the source's load in the critical dimension is partly
     * its own (a speed or background no region carries), so its regions weigh no more there than in
     * the other; the destination stays within 1 + λ in the other dimension.
     */
    OWN_LOAD_RELIEF,
    /**
     * In place of the interference constraint, where no relief lets the region go to any destination:
     * the destination ends above 1 + λ in the other dimension but λ below the source's load in the
     * critical one, so the move lowers a peak higher by λ than the one it raises.
     */
    PEAK_TRADE,
    /**
     * In place of the load constraint, for a region that cannot be split (splitting is off or
     * the load sits on one key): the destination ends below where the source is now, so the
     * move still lowers the peak.
     */
    BELOW_SOURCE,
    /**
     * In place of the load and interference constraints, where no region of a hot node met them or
     * split: the move lowers the higher peak of the two nodes (each node's larger normalised load)
     * by more than the benefit threshold, the most of any move of the node's regions tried.
     */
    PAIR_PEAK,
    /** α'_i &gt; 1/500: moving it is worth the overhead. */
    BENEFIT_THRESHOLD,
    /** The region exceeds λ/2 (Theorem 1's bound) and no lighter region qualified. */
    SPLIT_BOUND,
    /** Both neighbours are cold and small; merging them cuts per-region overhead. */
    COLD_NEIGHBOURS,
    /**
     * Not a migration condition: the last plan's moves left the measured Δ worse than the window
     * they were planned on, so this move takes a region back where it came from.
     */
    REVERT
}
