package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * Interference constraint: β′_i &lt; α′_i, so the move weighs less on the non-critical
 * dimension. Normalised against each node's targets; on heterogeneous nodes it must hold where
 * the load leaves and, once a destination is chosen, where it lands.
 */
public record InterferenceConstraint() implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.INTERFERENCE_CONSTRAINT;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        Dimension d = c.critical();
        return atSource(c) && (!c.hasDestination() || c.shareAtDestination(d.other()) < c.shareAtDestination(d));
    }

    /** β′ &lt; α′ where the region leaves. */
    static boolean atSource(MigrationCandidate c) {
        Dimension d = c.critical();
        return c.shareAtSource(d.other()) < c.shareAtSource(d);
    }

    /** "r disk 0.02 &lt; cpu 0.05 at n1": the test where the region leaves. */
    static String atSourceNote(MigrationCandidate c) {
        Dimension d = c.critical();
        return c.movedId() + " " + side(d, c.shareAtSource(d.other()), c.shareAtSource(d)) + " at " + c.sourceId();
    }

    @Override
    public String explain(MigrationCandidate c) {
        Dimension d = c.critical();
        String test = "interference constraint: " + atSourceNote(c);
        return !c.hasDestination() ? test
                : test + " and " + side(d, c.shareAtDestination(d.other()), c.shareAtDestination(d)) + " at " + c.destinationId();
    }

    private static String side(Dimension d, double other, double critical) {
        return d.other().label() + " " + Notes.compared(other, " < " + d.label() + " ", critical);
    }
}
