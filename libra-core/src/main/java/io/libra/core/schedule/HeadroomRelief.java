package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/**
 * In place of the interference constraint where the two nodes' targets differ: the region weighs
 * less in the other dimension where it leaves (β′ &lt; α′ at the source) but not where it lands, and
 * the destination stays within 1 + λ in that dimension after taking it. A region's share is its
 * load over a node's target, so on nodes of unequal speed or capacity the same region is CPU-heavy
 * on the slow node and disk-heavy on the fast one; the paper's constraint, checked at both ends,
 * then refuses every move from a slow node to a fast one, which is where the CPU has to go, unless
 * the source is also above its disk target ({@link SharedRelief}). With room in the other dimension
 * the move raises no peak there. The scheduler tries it only once a check found the last forecast
 * within λ ({@link SchedulerConfig#forecastChecked}), so first plans are the paper's.
 */
public record HeadroomRelief(double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.HEADROOM_RELIEF;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return InterferenceConstraint.atSource(c) && SharedRelief.destinationAfter(c) < 1 + lambda;
    }

    @Override
    public String explain(MigrationCandidate c) {
        return "headroom relief: " + InterferenceConstraint.atSourceNote(c) + " and " + SharedRelief.roomNote(c, lambda);
    }
}
