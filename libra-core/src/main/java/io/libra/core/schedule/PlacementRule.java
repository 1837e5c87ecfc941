package io.libra.core.schedule;

/**
 * What the store allows besides load, asked by the scheduler before it commits an action: may
 * this region go to that node now, may it be split. HBase's rules (system tables pinned, a
 * region's replicas on distinct servers and racks, no destination without a fresh report) live
 * in its adapter; the scheduler only skips what is refused and tries the next-best destination,
 * so a refused move is replaced in the same run instead of waiting for the next one.
 *
 * <p>A rule may follow the plan as it is built: {@link #moved} is called with every move the
 * scheduler commits, in order, so a rule about where other regions are sees them where the plan
 * puts them. The finished plan may merge hops (A→B→C becomes A→C) or stop at the action cap, so
 * an adapter still checks the final plan before it carries it out.
 */
public interface PlacementRule {
    /** Everything is allowed (stores without placement rules, the offline planner). */
    PlacementRule ANY = new PlacementRule() {
    };

    /** Why {@code region} may not move to {@code node} now, or null when it may. */
    default String refuseMove(String region, String node) {
        return null;
    }

    /** Why {@code region} may not be split, or null when it may. */
    default String refuseSplit(String region) {
        return null;
    }

    /** The scheduler has committed the move of {@code region} to {@code node}. */
    default void moved(String region, String node) {
    }

    /**
     * The rule for another plan of the same window, which has seen none of the moves committed to
     * this one: a rule that follows the plan ({@link #moved}) must return a copy at the window's
     * layout, or a second plan (a rival model's, {@code io.libra.core.RivalModels}, or a revert in
     * place of a plan held back) would be judged with the first plan's regions where that plan put
     * them. A rule that keeps no such state is its own.
     */
    default PlacementRule fresh() {
        return this;
    }
}
