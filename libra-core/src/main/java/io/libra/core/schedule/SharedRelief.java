package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * In place of the interference constraint: the source is above its target in the other
 * dimension too (it wants to shed both), and the destination stays within 1 + λ there. Without
 * this, a cluster whose CPU and disk line up (every region with α′ = β′) could never be balanced.
 */
public record SharedRelief(double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.SHARED_RELIEF;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        Dimension o = c.critical().other();
        return c.sourceLoad(o) > 1.0 && destinationAfter(c) < 1 + lambda;
    }

    /** The destination's load in the other dimension once the region is there. */
    static double destinationAfter(MigrationCandidate c) {
        Dimension o = c.critical().other();
        return c.destinationLoad(o) + c.shareAtDestination(o);
    }

    @Override
    public String explain(MigrationCandidate c) {
        Dimension o = c.critical().other();
        return "shared relief: " + c.sourceId() + " " + o.label() + " " + Notes.against(c.sourceLoad(o), 1) + " > 1 and "
                + roomNote(c, lambda);
    }

    /** "n2 disk 0.207 + 0.02 = 0.228 &lt; 1+λ=1.05": the destination's room in the other dimension, as the reliefs state it. */
    static String roomNote(MigrationCandidate c, double lambda) {
        Dimension o = c.critical().other();
        return c.destinationId() + " " + o.label() + " " + Notes.num(c.destinationLoad(o)) + " + "
                + Notes.num(c.shareAtDestination(o)) + " = " + Notes.compared(destinationAfter(c), " < 1+λ=", 1 + lambda);
    }
}
